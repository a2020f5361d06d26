"""Small jax programs that make XLA write a real dump folder: the HLO of every pass and of the
optimized module, and XLA's companions (buffer assignment, live ranges, memory-usage report).

    python dump_programs.py OUT_DIR

The programs cover what users compile: a training step, attention forward and backward, a conv
net, loops and conditionals, sorting, gathers and scatters, narrow and complex element types, and
programs sharded over 8 host devices with collectives. Each is small, so the whole folder is
written in well under a minute on two cores.
"""

import os
import sys

OUT = os.path.abspath(sys.argv[1])
os.environ["XLA_FLAGS"] = " ".join(
    [
        f"--xla_dump_to={OUT}",
        "--xla_dump_hlo_as_text",
        "--xla_dump_hlo_pass_re=.*",
        "--xla_force_host_platform_device_count=8",
    ]
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402  (XLA_FLAGS must be set before jax starts its backend)
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

try:
    from jax import shard_map
except ImportError:  # older jax
    from jax.experimental.shard_map import shard_map

key = jax.random.key(0)


def mlp_train_step():
    def loss(params, x, y):
        h = x
        for w, b in params[:-1]:
            h = jax.nn.gelu(h @ w + b)
        w, b = params[-1]
        logits = h @ w + b
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))

    @jax.jit
    def step(params, x, y):
        l, g = jax.value_and_grad(loss)(params, x, y)
        return l, jax.tree.map(lambda p, d: p - 0.01 * d, params, g)

    sizes = [(784, 256), (256, 128), (128, 10)]
    params = [(jnp.ones(s, jnp.float32) * 0.01, jnp.zeros(s[1])) for s in sizes]
    step(params, jnp.ones((64, 784)), jax.nn.one_hot(jnp.arange(64) % 10, 10))


def attention_forward_backward():
    def layer_norm(x):
        m = x.mean(-1, keepdims=True)
        return (x - m) * lax.rsqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-6)

    def attention(wq, wk, wv, x):
        x = layer_norm(x)
        q, k, v = x @ wq, x @ wk, x @ wv
        b, t, d = q.shape
        q, k, v = (a.reshape(b, t, 4, d // 4) for a in (q, k, v))
        s = jnp.einsum("bthd,bshd->bhts", q, k) / jnp.sqrt(d // 4)
        s = jnp.where(jnp.tril(jnp.ones((t, t), bool)), s, -1e9)
        o = jnp.einsum("bhts,bshd->bthd", jax.nn.softmax(s), v)
        return o.reshape(b, t, d).astype(jnp.float32).sum()

    x = jnp.ones((2, 16, 64), jnp.bfloat16)
    w = jnp.ones((64, 64), jnp.bfloat16) * 0.02
    jax.jit(attention)(w, w, w, x)
    jax.jit(jax.grad(attention, argnums=(0, 1, 2)))(w, w, w, x)


def conv_net():
    def net(w1, w2, x):
        y = lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jax.nn.relu(y)
        y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        y = lax.conv_general_dilated(y, w2, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.mean(y**2)

    w1, w2 = jnp.ones((3, 3, 3, 16)), jnp.ones((3, 3, 16, 32))
    jax.jit(jax.value_and_grad(net, argnums=(0, 1)))(w1, w2, jnp.ones((4, 32, 32, 3)))


def loops_and_conditionals():
    @jax.jit
    def f(x, n):
        def body(c, xs):
            c = jnp.tanh(c @ xs)
            return c, c.sum()

        c, ys = lax.scan(body, x, jnp.ones((5, 8, 8)))
        c = lax.fori_loop(0, n, lambda i, c: c * 0.5 + i, c)
        c = lax.while_loop(lambda c: c.sum() > 1.0, lambda c: c * 0.5, c)
        return lax.cond(ys.sum() > 0, lambda c: c + 1, lambda c: c - 1, c)

    f(jnp.ones((8, 8)), 3)
    jax.jit(lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, jnp.exp], x))(1, jnp.ones(7))


def sorting():
    x = jax.random.normal(key, (16, 100))
    jax.jit(lambda x: lax.top_k(x, 5))(x)
    jax.jit(lambda x: (jnp.sort(x, axis=0), jnp.argsort(x, axis=1)))(x)


def gather_scatter():
    table = jnp.ones((1000, 32))
    idx = jnp.array([3, 1, 4, 1, 5, 9, 2, 6])
    jax.jit(lambda t, i: t[i] * 2)(table, idx)
    jax.jit(lambda t, i: t.at[i].add(1.0))(table, idx)
    jax.jit(lambda t, i: jax.grad(lambda t: t[i].sum())(t))(table, idx)


def element_types():
    jax.jit(lambda x: (x.astype(jnp.int4) + 1).astype(jnp.int8))(jnp.arange(64, dtype=jnp.int8))
    jax.jit(lambda x: (x.astype(jnp.float8_e4m3fn).astype(jnp.float32), x.astype(jnp.float8_e5m2)))(
        jnp.ones(32)
    )
    jax.jit(lambda x: jnp.fft.fft(x.astype(jnp.complex64)) * 1j)(jnp.ones(64))
    jax.jit(lambda x: (x.astype(jnp.bfloat16) @ x.T.astype(jnp.bfloat16), x > 0, x.astype(jnp.uint8)))(
        jnp.ones((16, 16))
    )
    jax.jit(lambda k: (jax.random.uniform(k, (3, 5)), jax.random.bits(k, (7,), jnp.uint16)))(key)


def linalg_and_remat():
    a = jnp.eye(8) * 2.0
    jax.jit(lambda a: jnp.linalg.cholesky(a))(a)
    f = jax.checkpoint(lambda x: jnp.sin(x) @ jnp.cos(x))
    jax.jit(jax.grad(lambda x: f(x).sum()))(jnp.ones((16, 16)))
    jax.jit(lambda x, y: (x + y, x * y), donate_argnums=(0,))(jnp.ones(128), jnp.ones(128))


def sharded_collectives():
    devices = jax.devices()[:8]
    mesh = Mesh(np.array(devices), ("d",))

    def collectives(x):
        s = lax.psum(x, "d")
        g = lax.all_gather(x, "d", tiled=True)
        p = lax.ppermute(x, "d", [(i, (i + 1) % 8) for i in range(8)])
        a = lax.all_to_all(x.reshape(8, -1), "d", 0, 0, tiled=True)
        return s + p, g, a

    x = jnp.ones((64, 16))
    jax.jit(shard_map(collectives, mesh=mesh, in_specs=P("d"), out_specs=(P("d"), P("d"), P("d"))))(x)

    sharding = NamedSharding(mesh, P("d", None))
    w = jax.device_put(jnp.ones((256, 128)), sharding)
    jax.jit(lambda w, x: jnp.tanh(x @ w.T).sum(0), out_shardings=NamedSharding(mesh, P()))(w, jnp.ones((32, 128)))


def memory_shapes():
    """Buffers of many kinds for the memory view: sub-byte outputs packed with E(4), pred and fp8
    results, a transposed copy, and a scan over layers with a dict carry, its first argument donated."""
    x = jnp.arange(4096, dtype=jnp.int8).reshape(64, 64)
    jax.jit(lambda x: (x.astype(jnp.int4), x.astype(jnp.uint4), x > 3, x.astype(jnp.float8_e4m3fn), x.T))(x)

    def layer(c, w):
        h = jnp.tanh(c["h"] @ w)
        return {"h": h, "n": c["n"] + 1}, h.sum()

    run = jax.jit(lambda h, ws: lax.scan(layer, {"h": h, "n": jnp.int32(0)}, ws), donate_argnums=(0,))
    run(jnp.ones((16, 128)), jnp.ones((6, 128, 128)))


PROGRAMS = [
    mlp_train_step,
    attention_forward_backward,
    conv_net,
    loops_and_conditionals,
    sorting,
    gather_scatter,
    element_types,
    linalg_and_remat,
    sharded_collectives,
    memory_shapes,
]

if __name__ == "__main__":
    for program in PROGRAMS:
        program()
    jax.config.update("jax_enable_x64", True)
    jax.jit(lambda x: (x * 2.0, x.astype(jnp.complex128), x.astype(jnp.int64)))(jnp.ones(4, jnp.float64))
    print(f"dump_programs: {len(PROGRAMS) + 1} programs dumped to {OUT}")
