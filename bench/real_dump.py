"""A real jax dump for the benchmarks: the training step of a decoder-only transformer with
LAYERS layers (written out layer by layer, as models are), sharded over 8 host devices, compiled
by the real XLA, which writes its optimized HLO to OUT_DIR.

    python real_dump.py OUT_DIR LAYERS

The HLO grows with the layers (48 layers: tens of megabytes), with the metadata, fusions,
collectives and layouts XLA writes for a real model. The CPU backend prints no TPU tiles; the
synthetic profiles of generate-dump.ts cover those.
"""

import os
import sys

OUT = os.path.abspath(sys.argv[1])
LAYERS = int(sys.argv[2])
os.environ["XLA_FLAGS"] = " ".join(
    [
        f"--xla_dump_to={OUT}",
        "--xla_dump_hlo_as_text",
        "--xla_force_host_platform_device_count=8",
    ]
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402  (XLA_FLAGS must be set before jax starts its backend)
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

D, HEADS, FF, SEQ, BATCH, VOCAB = 256, 8, 1024, 128, 16, 4096


def layer_norm(x, g):
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.mean((x - m) ** 2, axis=-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-6) * g


def block(p, x):
    h = layer_norm(x, p["ln1"])
    q, k, v = (jnp.einsum("bsd,dhe->bhse", h, p[n]) for n in ("wq", "wk", "wv"))
    s = jnp.einsum("bhqe,bhke->bhqk", q, k) / jnp.sqrt(D // HEADS)
    mask = jnp.tril(jnp.ones((SEQ, SEQ), bool))
    a = jax.nn.softmax(jnp.where(mask, s, -1e9), axis=-1)
    x = x + jnp.einsum("bhqk,bhke,hed->bqd", a, v, p["wo"])
    h = layer_norm(x, p["ln2"])
    return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]


def params(key):
    def layer(k):
        ks = jax.random.split(k, 6)
        n = lambda k, s: jax.random.normal(k, s, jnp.bfloat16) * 0.02  # noqa: E731
        return {
            "ln1": jnp.ones((D,), jnp.bfloat16),
            "ln2": jnp.ones((D,), jnp.bfloat16),
            "wq": n(ks[0], (D, HEADS, D // HEADS)),
            "wk": n(ks[1], (D, HEADS, D // HEADS)),
            "wv": n(ks[2], (D, HEADS, D // HEADS)),
            "wo": n(ks[3], (HEADS, D // HEADS, D)),
            "w1": n(ks[4], (D, FF)),
            "w2": n(ks[5], (FF, D)),
        }

    keys = jax.random.split(key, LAYERS + 1)
    return {
        "embed": jax.random.normal(keys[0], (VOCAB, D), jnp.bfloat16) * 0.02,
        "layers": [layer(k) for k in keys[1:]],
    }


def loss(p, tokens):
    x = p["embed"][tokens]
    for lp in p["layers"]:
        x = block(lp, x)
    logits = (x @ p["embed"].T).astype(jnp.float32)
    labels = jax.nn.one_hot(jnp.roll(tokens, -1, axis=1), VOCAB)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1))


mesh = Mesh(jax.devices()[:8], ("data",))
batch = NamedSharding(mesh, P("data"))


@jax.jit
def train_step(p, tokens):
    value, grads = jax.value_and_grad(loss)(p, tokens)
    return value, jax.tree.map(lambda w, g: w - 0.01 * g.astype(w.dtype), p, grads)


p = params(jax.random.key(0))
tokens = jax.device_put(jnp.zeros((BATCH, SEQ), jnp.int32), batch)
train_step.lower(p, tokens).compile()
