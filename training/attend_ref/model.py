"""The Transformer of "Attention Is All You Need" (Vaswani et al., 2017), written plainly.

This file is the source of truth for Attend's math: the C++ core must reproduce its logits,
attention probabilities and chosen tokens. Dimension letters used in shape comments:
  B batch, S source length, T target length, D d_model, H heads, K head_dim (D / H),
  F d_ff, V vocabulary size, L layers.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .config import ModelConfig


def sinusoidal_table(max_positions, d_model, half_split):
    """PE[pos] of the paper, interleaved: PE[pos, 2i] = sin(pos / 10000^(2i/D)), PE[pos, 2i+1] = cos(...).
    half_split (Marian, fairseq): PE[pos] = [sin(pos·f_0..f_{D/2-1}) | cos(pos·f_0..)], f_i = 10000^(-i/(D/2-1))."""
    pos = torch.arange(max_positions, dtype=torch.float64)[:, None]  # [P, 1]
    half = d_model // 2
    if half_split:
        freq = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float64) / max(half - 1, 1))
        table = torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=1)  # [P, D]
    else:
        freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
        table = torch.zeros(max_positions, d_model, dtype=torch.float64)
        table[:, 0::2] = torch.sin(pos * freq)
        table[:, 1::2] = torch.cos(pos * freq)
    return table.float()


def dropout(x, p, training):
    """Inverted dropout with p rounded to a multiple of 1/65536. Each unit's mask is 16 random bits:
    one 64-bit draw covers four units, ~2.5x cheaper than torch.rand's one float per unit (whose
    masks took ~20% of a d_ff 256 model's training step)."""
    if not training or p == 0.0:
        return x
    dropped = round(p * 65536)  # drop a unit when its 16 uniform bits, as int16 + 32768, are below this
    words = torch.empty(x.numel() // 4 + 1, dtype=torch.int64).random_(-2**63, 2**63 - 1)  # all 64 bits uniform
    keep = words.view(torch.int16)[:x.numel()].view(x.shape).ge(dropped - 32768)
    return x * keep.to(x.dtype).mul_(65536 / (65536 - dropped))


def activation_fn(name):
    return {"relu": F.relu, "gelu": F.gelu, "swish": F.silu}[name]


class Embedding(nn.Module):
    """Token embedding · sqrt(D) (optional) + position encoding."""

    def __init__(self, cfg: ModelConfig, vocab_size, tokens: nn.Embedding = None, zero_start=False):
        super().__init__()
        self.embed_tokens = tokens if tokens is not None else nn.Embedding(vocab_size, cfg.d_model)
        self.scale = math.sqrt(cfg.d_model) if cfg.embedding_scale else 1.0
        self.zero_start = zero_start  # position 0's token embedding is a zero vector (Marian's decoder)
        if cfg.positions == "learned":
            self.embed_positions = nn.Embedding(cfg.max_positions, cfg.d_model)
        else:
            table = sinusoidal_table(cfg.max_positions, cfg.d_model, cfg.positions == "sinusoidal_half")
            self.register_buffer("position_table", table, persistent=False)
            self.embed_positions = None

    def forward(self, ids, start=0):
        # ids [B, T] -> [B, T, D]
        positions = torch.arange(start, start + ids.shape[1], device=ids.device)
        if positions.numel() and positions[-1] >= self.position_count():
            raise ValueError(f"position {int(positions[-1])} is beyond max_positions {self.position_count()}")
        pe = self.embed_positions(positions) if self.embed_positions is not None else self.position_table[positions]
        tokens = self.embed_tokens(ids.clamp(min=0))  # padding may be -1 (pad_id -1), masked by the caller
        if self.zero_start and start == 0:
            tokens = torch.cat([torch.zeros_like(tokens[:, :1]), tokens[:, 1:]], dim=1)
        return tokens * self.scale + pe

    def position_count(self):
        return self.embed_positions.num_embeddings if self.embed_positions is not None else self.position_table.shape[0]


class MultiHeadAttention(nn.Module):
    """Attention(Q, K, V) = softmax(Q·Kᵀ / sqrt(K)) · V per head; heads concatenated, then out_proj."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        d = cfg.d_model
        self.num_heads, self.head_dim = cfg.num_heads, cfg.head_dim
        self.q_proj, self.k_proj, self.v_proj, self.out_proj = (nn.Linear(d, d) for _ in range(4))

    def split_heads(self, x):
        b, t, _ = x.shape  # [B, T, D] -> [B, H, T, K]
        return x.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)

    def project_kv(self, source):
        return self.split_heads(self.k_proj(source)), self.split_heads(self.v_proj(source))

    def forward(self, query, k, v, mask, head_keep=None):
        """query [B, Tq, D]; k, v [B, H, Tk, K]; mask broadcastable to [B, H, Tq, Tk], True = hidden;
        head_keep [H] of 0/1 zeroes chosen heads' outputs. Returns out [B, Tq, D], probs [B, H, Tq, Tk]."""
        q = self.split_heads(self.q_proj(query)) / math.sqrt(self.head_dim)  # [B, H, Tq, K]
        scores = q @ k.transpose(-1, -2)  # [B, H, Tq, Tk]
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        heads = probs @ v  # [B, H, Tq, K]
        if head_keep is not None:
            heads = heads * head_keep.view(1, -1, 1, 1)
        b, _, tq, _ = heads.shape
        return self.out_proj(heads.transpose(1, 2).reshape(b, tq, -1)), probs


class FeedForward(nn.Module):
    """FFN(x) = act(x·W1ᵀ + b1)·W2ᵀ + b2."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.fc1 = nn.Linear(cfg.d_model, cfg.d_ff)
        self.fc2 = nn.Linear(cfg.d_ff, cfg.d_model)
        self.act = activation_fn(cfg.activation)

    def forward(self, x, p):
        return self.fc2(dropout(self.act(self.fc1(x)), p, self.training))


class SSRU(nn.Module):
    """Marian's simpler simple recurrent unit (dec-cell: ssru), in place of decoder self-attention:
    f_t = sigmoid(x_t·Wfᵀ + bf), c_t = f_t ⊙ c_{t-1} + (1 - f_t) ⊙ (x_t·Wᵀ), output relu(c_t); c_0 = 0."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.input = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        self.forget = nn.Linear(cfg.d_model, cfg.d_model)

    def forward(self, x, cache=None):
        """x [B, T, D] -> [B, T, D]; cache: dict holding the last cell state "c" [B, D] (incremental decoding)."""
        candidate = self.input(x)  # [B, T, D]
        forget = torch.sigmoid(self.forget(x))  # [B, T, D]
        c = cache["c"] if cache is not None and "c" in cache else torch.zeros_like(x[:, 0])  # [B, D]
        out = []
        for t in range(x.shape[1]):
            c = forget[:, t] * c + (1 - forget[:, t]) * candidate[:, t]
            out.append(torch.relu(c))
        if cache is not None:
            cache["c"] = c
        return torch.stack(out, dim=1)


class Sublayer(nn.Module):
    """Residual + LayerNorm around a sublayer: post-norm LN(x + f(x)) or pre-norm x + f(LN(x))."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.pre = cfg.norm == "pre"

    def apply(self, x, norm, fn, p, training):
        if self.pre:
            out, extra = fn(norm(x))
            return x + dropout(out, p, training), extra
        out, extra = fn(x)
        return norm(x + dropout(out, p, training)), extra


class EncoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.self_attn = MultiHeadAttention(cfg)
        self.self_attn_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps)
        self.ffn = FeedForward(cfg)
        self.ffn_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps)
        self.residual = Sublayer(cfg)

    def forward(self, x, mask, dropout, head_keep=None):
        def attn(h):
            return self.self_attn(h, *self.self_attn.project_kv(h), mask, head_keep)

        x, probs = self.residual.apply(x, self.self_attn_norm, attn, dropout, self.training)
        x, _ = self.residual.apply(x, self.ffn_norm, lambda h: (self.ffn(h, dropout), None), dropout, self.training)
        return x, probs


class DecoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        if cfg.decoder_autoreg == "ssru":
            self.ssru = SSRU(cfg)
            self.ssru_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps)
        else:
            self.self_attn = MultiHeadAttention(cfg)
            self.self_attn_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps)
        self.cross_attn = MultiHeadAttention(cfg)
        self.cross_attn_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps)
        self.ffn = FeedForward(cfg)
        self.ffn_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps)
        self.residual = Sublayer(cfg)

    def forward(self, x, cross_kv, self_mask, cross_mask, dropout, cache=None, self_keep=None, cross_keep=None):
        """x [B, T, D]; cross_kv = (k, v) [B, H, S, K]; cache: dict holding past self-attention k, v (or the
        SSRU's cell state). self_probs is None for an SSRU layer."""

        def self_attn(h):
            k, v = self.self_attn.project_kv(h)  # [B, H, T, K]
            if cache is not None:
                if "k" in cache:
                    k, v = torch.cat([cache["k"], k], dim=2), torch.cat([cache["v"], v], dim=2)
                cache["k"], cache["v"] = k, v
            return self.self_attn(h, k, v, self_mask, self_keep)

        if hasattr(self, "ssru"):
            x, self_probs = self.residual.apply(x, self.ssru_norm, lambda h: (self.ssru(h, cache), None), dropout,
                                                self.training)
        else:
            x, self_probs = self.residual.apply(x, self.self_attn_norm, self_attn, dropout, self.training)
        x, cross_probs = self.residual.apply(
            x, self.cross_attn_norm, lambda h: self.cross_attn(h, *cross_kv, cross_mask, cross_keep), dropout, self.training)
        x, _ = self.residual.apply(x, self.ffn_norm, lambda h: (self.ffn(h, dropout), None), dropout, self.training)
        return x, self_probs, cross_probs


class Encoder(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.embedding = Embedding(cfg, cfg.src_vocab_size)
        self.layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.encoder_layers))
        self.final_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if cfg.norm == "pre" else None


class Decoder(nn.Module):
    def __init__(self, cfg: ModelConfig, shared_tokens=None):
        super().__init__()
        self.embedding = Embedding(cfg, cfg.tgt_vocab_size, shared_tokens, zero_start=cfg.decoder_start == "zeros")
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.decoder_layers))
        self.final_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if cfg.norm == "pre" else None
        self.output_projection = None if cfg.tie_output else nn.Linear(cfg.d_model, cfg.tgt_vocab_size, bias=False)
        self.final_logits_bias = nn.Parameter(torch.zeros(cfg.tgt_vocab_size)) if cfg.final_logits_bias else None


class Transformer(nn.Module):
    """Encoder–decoder. Head masks: dict with keys 'encoder', 'decoder', 'cross', each a [L, H] tensor
    of 1 (keep) / 0 (zero the head's output)."""

    def __init__(self, cfg: ModelConfig, dropout=0.0):
        super().__init__()
        self.cfg = cfg.validate()
        self.dropout = dropout
        self.encoder = Encoder(cfg)
        shared = self.encoder.embedding.embed_tokens if cfg.share_embeddings else None
        self.decoder = Decoder(cfg, shared)
        self.reset_parameters()

    def reset_parameters(self):
        for name, p in self.named_parameters():
            if p.dim() == 2 and "embed" not in name:
                nn.init.xavier_uniform_(p)
            elif "embed" in name:
                nn.init.normal_(p, 0.0, self.cfg.d_model ** -0.5)

    # --- encoder -------------------------------------------------------------------------
    def encode(self, src, head_masks=None):
        """src [B, S] (padded with pad_id) -> memory [B, S, D], src_pad [B, S] (True = padding),
        enc_probs: list over layers of [B, H, S, S]."""
        src_pad = src.lt(0) if self.cfg.pad_id < 0 else src.eq(self.cfg.pad_id)
        mask = src_pad[:, None, None, :]  # [B, 1, 1, S]
        x = dropout(self.encoder.embedding(src), self.dropout, self.training)
        probs = []
        for i, layer in enumerate(self.encoder.layers):
            x, p = layer(x, mask, self.dropout, _keep(head_masks, "encoder", i))
            probs.append(p)
        if self.encoder.final_norm is not None:
            x = self.encoder.final_norm(x)
        return x, src_pad, probs

    def cross_kv(self, memory):
        """Cross-attention K, V per decoder layer, computed once per sentence: list of ([B, H, S, K], [B, H, S, K])."""
        return [layer.cross_attn.project_kv(memory) for layer in self.decoder.layers]

    # --- decoder -------------------------------------------------------------------------
    def logits(self, x):
        # x [B, T, D] -> [B, T, V]
        dec = self.decoder
        weight = dec.output_projection.weight if dec.output_projection is not None else dec.embedding.embed_tokens.weight
        out = x @ weight.t()
        return out + dec.final_logits_bias if dec.final_logits_bias is not None else out

    def decode(self, tgt_in, memory, src_pad, head_masks=None, start=0, caches=None, cross=None):
        """tgt_in [B, T] (positions start..start+T-1). With caches (one dict per layer) the self-attention
        keys/values of earlier positions are reused (incremental decoding).
        Returns logits [B, T, V], self_probs and cross_probs: lists over layers of [B, H, T, T_all] / [B, H, T, S]."""
        x, self_probs, cross_probs = self.decode_states(tgt_in, memory, src_pad, head_masks, start, caches, cross)
        return self.logits(x), self_probs, cross_probs

    def decode_states(self, tgt_in, memory, src_pad, head_masks=None, start=0, caches=None, cross=None):
        """As decode, but returns the decoder's output states [B, T, D] in place of the logits."""
        t = tgt_in.shape[1]
        total = start + t
        causal = torch.ones(t, total, dtype=torch.bool, device=tgt_in.device).triu(start + 1)  # True above diagonal
        self_mask = causal[None, None]  # [1, 1, T, T_all]
        cross_mask = src_pad[:, None, None, :]  # [B, 1, 1, S]
        cross = cross if cross is not None else self.cross_kv(memory)
        x = dropout(self.decoder.embedding(tgt_in, start), self.dropout, self.training)
        self_probs, cross_probs = [], []
        for i, layer in enumerate(self.decoder.layers):
            x, sp, cp = layer(x, cross[i], self_mask, cross_mask, self.dropout,
                              caches[i] if caches is not None else None,
                              _keep(head_masks, "decoder", i), _keep(head_masks, "cross", i))
            self_probs.append(sp)
            cross_probs.append(cp)
        if self.decoder.final_norm is not None:
            x = self.decoder.final_norm(x)
        return x, self_probs, cross_probs

    def forward(self, src, tgt_in, head_masks=None):
        memory, src_pad, _ = self.encode(src, head_masks)
        logits, _, _ = self.decode(tgt_in, memory, src_pad, head_masks)
        return logits


def _keep(head_masks, kind, layer):
    if head_masks is None or kind not in head_masks:
        return None
    return head_masks[kind][layer]
