"""Attend's PyTorch reference: the Transformer's math (the oracle the C++ core must match),
training on Multi30k and export to Attend's safetensors model file."""
