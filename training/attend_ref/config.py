"""Model configuration: the same JSON travels in the model file as `attend.config`."""
import dataclasses
import json

ACTIVATIONS = ("relu", "gelu", "swish")
NORMS = ("post", "pre")
POSITIONS = ("sinusoidal", "sinusoidal_half", "learned")
DECODER_STARTS = ("bos", "zeros")
DECODER_AUTOREGS = ("self_attention", "ssru")


@dataclasses.dataclass
class ModelConfig:
    src_vocab_size: int
    tgt_vocab_size: int
    d_model: int = 128
    num_heads: int = 4
    d_ff: int = 512
    encoder_layers: int = 4
    decoder_layers: int = 4
    activation: str = "relu"          # relu | gelu | swish
    norm: str = "post"                # post (the paper's) | pre (with a final norm per stack)
    positions: str = "sinusoidal"     # sinusoidal (interleaved sin/cos) | sinusoidal_half (sin | cos) | learned
    embedding_scale: bool = True      # multiply embeddings by sqrt(d_model)
    shared_vocab: bool = False        # one tokenizer for source and target
    share_embeddings: bool = False    # source and target embeddings are one matrix (needs shared_vocab)
    tie_output: bool = True           # output projection = target embedding
    final_logits_bias: bool = False   # a learned bias added to the logits
    max_positions: int = 256
    layer_norm_eps: float = 1e-5
    decoder_start: str = "bos"        # bos (its embedding) | zeros (Marian: a zero vector, + position 0)
    decoder_autoreg: str = "self_attention"  # self_attention | ssru (Marian's simpler simple recurrent unit)
    pad_id: int = 0                   # -1: no padding token (Marian); batches pad with -1, masked
    unk_id: int = 1
    bos_id: int = 2
    eos_id: int = 3

    def validate(self):
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if self.norm not in NORMS:
            raise ValueError(f"norm must be one of {NORMS}, got {self.norm!r}")
        if self.positions not in POSITIONS:
            raise ValueError(f"positions must be one of {POSITIONS}, got {self.positions!r}")
        if self.decoder_start not in DECODER_STARTS:
            raise ValueError(f"decoder_start must be one of {DECODER_STARTS}, got {self.decoder_start!r}")
        if self.decoder_autoreg not in DECODER_AUTOREGS:
            raise ValueError(f"decoder_autoreg must be one of {DECODER_AUTOREGS}, got {self.decoder_autoreg!r}")
        if self.d_model % self.num_heads:
            raise ValueError(f"d_model {self.d_model} is not divisible by num_heads {self.num_heads}")
        if self.positions != "learned" and self.d_model % 2:
            raise ValueError(f"sinusoidal positions need an even d_model, got {self.d_model}")
        if self.share_embeddings and (not self.shared_vocab or self.src_vocab_size != self.tgt_vocab_size):
            raise ValueError("share_embeddings needs shared_vocab and equal vocabulary sizes")
        return self

    @property
    def head_dim(self):
        return self.d_model // self.num_heads

    def to_json(self):
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text):
        return cls(**json.loads(text)).validate()
