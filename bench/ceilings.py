"""How fast the batched rows could be at most: the matrix products a target token needs, at the rate
the kernel micro-bench measured for the model's shapes at many rows (m 448), as if attention,
top-k, the search's bookkeeping and the tokenizer took no time. Beside the measured rows this
says whether a speed target is reachable with the same arithmetic on this machine.

A decoder step of one hypothesis (row) multiplies, per decoder layer: the self-attention's Q, K, V
(d → 3d) and output (d → d), the cross-attention's query (d → d) and output (d → d), the
feed-forward (d → d_ff → d); then the output layer (d → vocabulary). A source token costs, per
encoder layer, Q, K, V, output and feed-forward, and per decoder layer the cross-attention's K and
V (d → 2d)."""

SHAPE_RATE_ROWS = 448  # the micro-bench's many-rows shapes (rates level off well before)


def step_products(config):
    """[(n, k, count)] of one decoder row-step: count products of [1, k] by [k, n]."""
    d, ff, layers, vocab = config["d_model"], config["d_ff"], config["decoder_layers"], config["tgt_vocab_size"]
    return [(3 * d, d, layers), (d, d, 3 * layers), (ff, d, layers), (d, ff, layers), (vocab, d, 1)]


def source_products(config):
    """[(n, k, count)] of one source token."""
    d, ff = config["d_model"], config["d_ff"]
    return [(3 * d, d, config["encoder_layers"]), (d, d, config["encoder_layers"]), (ff, d, config["encoder_layers"]),
            (d, ff, config["encoder_layers"]), (2 * d, d, config["decoder_layers"])]


def shape_rate(kernels, kernel, n, k):
    """GFLOP/s of `kernel` at m 448 for [k → n], or for the measured shape nearest in n·k."""
    rows = {}
    for row in kernels["rows"]:
        name, isa, m, rn, rk = row["name"].split("/")
        if name == kernel and isa == kernels["isa"] and m == f"m:{SHAPE_RATE_ROWS}":
            rows[(int(rn[2:]), int(rk[2:]))] = row["gflops"]
    if not rows:
        return None
    return rows.get((n, k)) or rows[min(rows, key=lambda shape: abs(shape[0] * shape[1] - n * k))]


def seconds_per_token(kernels, kernel, config, rows_per_token, source_per_token):
    """Time of a target token's products at the many-rows rates (None without the rates)."""
    total = 0.0
    for products, per_token in ((step_products(config), rows_per_token), (source_products(config), source_per_token)):
        for n, k, count in products:
            rate = shape_rate(kernels, kernel, n, k)
            if rate is None:
                return None
            total += per_token * count * 2 * n * k / (rate * 1e9)
    return total


def ceiling(kernels, kernel, config, run, beam, source_tokens):
    """Target tokens/s at most for a measured run: `beam` rows per step, one step per target token
    and one more per sentence (eos)."""
    tokens = run["target_tokens"]
    rows_per_token = beam * (tokens + run["sentences"]) / tokens
    seconds = seconds_per_token(kernels, kernel, config, rows_per_token, source_tokens / tokens)
    return None if seconds is None else 1 / seconds
