"""XLA as a judge of HLO text, for the test suite (test/xla/oracle.ts starts it).

    python oracle.py

Imports jaxlib once, then answers requests on stdin, one JSON line each:

    {"texts": ["HloModule m ...", ...]}

with one JSON line holding a verdict per text, in order:

    {"verdicts": [{"verdict": "ok" | "error" | "crash", "stage": ..., "message": ...}, ...]}

Each text is parsed with XLA's HLO parser (`hlo_module_from_text`), then every shape is validated
by importing the module to MLIR (`xla_computation_to_mlir_module`), which runs ShapeUtil's and
LayoutUtil's validation, and the shapes of `entry_computation_layout` (which the import reads
but does not check) are validated as XLA's verifier validates them. Stages: "parse" (the parser
refused it), "import" (validation refused it), "entry-layout", "crash" (XLA's parser aborted: a
CHECK failure or LOG(FATAL) kills the process instead of returning an error), "import-crash" and
"entry-layout-crash" (a later stage aborted).

Texts are judged in a child process forked from this one, so a crash kills only the child. One
child judges a whole batch, text after text, writing each verdict as soon as it has it; when it
dies, the text it was judging is the crash and a new child takes the rest (forking costs about
as much as judging a small module, so a child per text would double the time).

Limits of the import step, not of XLA's rules, are worked around: `Tile::FromProto` refuses `*`
tile entries (kCombineDimension, also written -9223372036854775808), which the parser and the
validator accept, so the import sees them as 1 (real-xla.md); MLIR has no `opaque` type, so the
import sees `opaque` as `token` (neither is an array, and the validator checks neither's layout);
MLIR imports a buffer `b(X)` as a memref, which takes no dynamic dimensions and no tiles, so the
import sees it as the tuple `(X)`, whose element the validator checks as it checks X in `b(X)`.
"""

import json
import os
import re
import sys
import tempfile
import time

# jaxlib's import is the slow part (seconds); children inherit it.
from jax._src.lib import xla_client as xc

# Blanks and comments, which XLA's lexer skips between any two tokens.
TRIVIA = r"(?:\s|/\*.*?\*/|//[^\n\r]*)*"
# `T` and its tile groups `(...)(...)`; a group holds numbers, `*`, commas and trivia.
TILES = re.compile(r"(?<![\w.%-])T(?:" + TRIVIA + r"\((?:[^()/]|/\*.*?\*/|//[^\n\r]*)*\))+", re.S)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n\r]*", re.S)
# XLA's lexer reads 9223372036854775808 (2^63, no int64) as a uint64 and stores it as INT64_MIN: `*`.
COMBINE = re.compile(r"\*|-?9223372036854775808(?!\d)")
OPAQUE = re.compile(r"(?<![\w.%-])opaque(?![\w.-])")
BUFFER = re.compile(r"(?<![\w.%-])b(?=" + TRIVIA + r"\()", re.S)


def outside_comments(text, change):
    """`change` applied to the parts of `text` that are not comments."""
    out, at = [], 0
    for m in COMMENT.finditer(text):
        out += [change(text[at : m.start()]), m.group(0)]
        at = m.end()
    return "".join(out + [change(text[at:])])


def for_import(text):
    """The text the import step sees (see the module's doc): `*` tile entries (and INT64_MIN, which
    the parser stores as `*`) as 1, `opaque` as `token`, `b(X)` as `(X)`."""
    seen = TILES.sub(lambda m: outside_comments(m.group(0), lambda t: COMBINE.sub("1", t)), text)
    seen = OPAQUE.sub("token", seen)
    return BUFFER.sub(" ", seen)


def judge(text, progress=lambda stage: None):
    """XLA's verdict on `text`; `progress` hears of each stage as it begins (so that a crash can
    be told apart by where it happened)."""
    try:
        module = xc.hlo.hlo_module_from_text(text)
    except Exception as e:  # XLA's errors arrive as exceptions with its message
        return {"verdict": "error", "stage": "parse", "message": str(e)}
    progress("import")
    try:
        seen = for_import(text)
        if seen != text:
            module = xc.hlo.hlo_module_from_text(seen)
        computation = xc.XlaComputation(module.as_serialized_hlo_module_proto())
        xc._xla.mlir.xla_computation_to_mlir_module(computation)
    except Exception as e:
        return {"verdict": "error", "stage": "import", "message": str(e)}
    if "entry_computation_layout" in text:
        # The import reads the entry layout's shapes but does not validate them; XLA's verifier
        # does (ValidateShapeWithOptionalLayout on each), as the parser does on tuple elements.
        progress("entry-layout")
        shape = computation.program_shape()
        shapes = [str(p) for p in shape.parameter_shapes()] + [str(shape.result_shape())]
        check = "HloModule v\n\nENTRY %e {\n  ROOT %p = (" + ", ".join(shapes) + ") parameter(0)\n}\n"
        try:
            xc.hlo.hlo_module_from_text(for_import(check))
        except Exception as e:
            return {"verdict": "error", "stage": "entry-layout", "message": str(e)}
    return {"verdict": "ok", "stage": "", "message": ""}


def crash_message(log_path):
    """The CHECK failure or fatal log line of a dead child, from its stderr."""
    try:
        with open(log_path, "r", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    for line in lines:
        if "Check failed" in line or "RET_CHECK" in line or "] " in line and line[:1] in "FE":
            return line.strip()[:500]
    return "\n".join(lines[-3:])[:500]


def run_child(texts, write_fd, log_fd):
    os.dup2(log_fd, 2)
    out = os.fdopen(write_fd, "w")

    def progress(stage):
        out.write(json.dumps({"progress": stage}) + "\n")
        out.flush()

    for text in texts:
        started = time.perf_counter()
        verdict = judge(text, progress)
        verdict["ms"] = round((time.perf_counter() - started) * 1000, 2)
        out.write(json.dumps(verdict) + "\n")
        out.flush()
    out.close()
    os._exit(0)


def judge_batch(texts):
    verdicts = []
    while len(verdicts) < len(texts):
        rest = texts[len(verdicts):]
        read_fd, write_fd = os.pipe()
        log_fd, log_path = tempfile.mkstemp(prefix="xla-oracle-")
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            try:
                run_child(rest, write_fd, log_fd)
            finally:
                os._exit(70)
        os.close(write_fd)
        got = 0
        stage = "parse"
        with os.fdopen(read_fd, "r") as results:
            for line in results:
                answer = json.loads(line)
                if "progress" in answer:
                    stage = answer["progress"]
                    continue
                verdicts.append(answer)
                got += 1
                stage = "parse"
        _, status = os.waitpid(pid, 0)
        if got < len(rest):
            why = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"
            message = crash_message(log_path)
            # A crash while parsing is XLA's parser aborting; later, the MLIR importer's.
            verdicts.append(
                {"verdict": "crash", "stage": "crash" if stage == "parse" else f"{stage}-crash", "message": f"XLA died ({why}): {message}"}
            )
        os.close(log_fd)
        os.unlink(log_path)
    return verdicts


def main():
    out = sys.stdout
    out.write(json.dumps({"ready": xc._version if hasattr(xc, "_version") else True}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        out.write(json.dumps({"verdicts": judge_batch(request["texts"])}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
