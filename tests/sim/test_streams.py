"""Streams, blocking callbacks, synchronisation semantics of the free variants, memcpy."""

from __future__ import annotations

# Shared child-side prelude: a gate that blocks a stream until opened.
BLOCKER = """
import threading, time
gates = []
@ffi.callback("void(void *)")
def _wait_gate(arg):
    gates[int(ffi.cast("uintptr_t", arg))].wait(20)
def block(stream):
    gates.append(threading.Event())
    expect(lib.aclrtLaunchHostFunc(stream, _wait_gate, ffi.cast("void *", len(gates) - 1)),
           SUCCESS, "launch blocker")
    return gates[-1]
def query(stream):
    st = ffi.new("aclrtStreamStatus *")
    expect(lib.aclrtStreamQuery(stream, st), SUCCESS, "query")
    return st[0]
def new_stream():
    s = ffi.new("aclrtStream *")
    expect(lib.aclrtCreateStream(s), SUCCESS, "create stream")
    return s[0]
def timed(fn, *args):
    t0 = time.monotonic(); rc = fn(*args); return rc, time.monotonic() - t0
def open_later(gate, delay):
    threading.Timer(delay, gate.set).start()
"""


def test_given_stream_when_tasks_queued_then_in_order_and_query(run_sim):
    run_sim(
        prelude=BLOCKER,
        code="""
        init()
        s = new_stream()
        order = []
        @ffi.callback("void(void *)")
        def record(arg):
            order.append(int(ffi.cast("uintptr_t", arg)))
        gate = block(s)
        src = malloc_host(4096); dst = malloc_host(4096)
        fill(src, 4096, b"S")
        for i in range(5):
            expect(lib.aclrtLaunchHostFunc(s, record, ffi.cast("void *", i)), SUCCESS)
        expect(lib.aclrtMemcpyAsync(dst, 4096, src, 4096, lib.ACL_MEMCPY_HOST_TO_HOST, s), SUCCESS)
        time.sleep(0.05)
        assert query(s) == lib.ACL_STREAM_STATUS_NOT_READY
        assert order == [] and read(dst, 1) == b"\\xa5", "blocked stream ran tasks"
        gate.set()
        expect(lib.aclrtSynchronizeStream(s), SUCCESS)
        assert order == [0, 1, 2, 3, 4], order
        assert read(dst, 4096) == b"S" * 4096
        assert query(s) == lib.ACL_STREAM_STATUS_COMPLETE
        expect(lib.aclrtDestroyStream(s), SUCCESS)
        expect(lib.aclrtDestroyStream(s), INVALID_PARAM, "destroyed twice")
        expect(lib.aclrtSynchronizeStream(ffi.cast("void *", 0x1234)), INVALID_PARAM, "bogus handle")
        expect(lib.aclrtLaunchHostFunc(ffi.NULL, ffi.NULL, ffi.NULL), INVALID_PARAM, "fn NULL")
        assert stats().live_streams == 0
    """,
    )


def test_given_default_stream_when_null_handle_then_created_lazily(run_sim):
    run_sim(
        prelude=BLOCKER,
        code="""
        init()
        assert stats().live_streams == 0
        src = malloc_host(100); dst = malloc_host(100)
        fill(src, 100, b"d")
        expect(lib.aclrtMemcpyAsync(dst, 100, src, 100, lib.ACL_MEMCPY_HOST_TO_HOST, ffi.NULL), SUCCESS)
        expect(lib.aclrtSynchronizeStream(ffi.NULL), SUCCESS)
        assert read(dst, 100) == b"d" * 100
        assert stats().live_streams == 1
        expect(lib.aclrtSynchronizeDevice(), SUCCESS)
        expect(lib.aclrtResetDevice(0), SUCCESS)
        assert stats().live_streams == 0
    """,
    )


def test_given_blocked_stream_when_malloc_and_free_then_no_implicit_sync(run_sim):
    run_sim(
        prelude=BLOCKER,
        code="""
        init()
        s = new_stream()
        gate = block(s)
        p = malloc_host(1 << 20)
        rc, dt = timed(lib.aclrtMallocHost, ffi.new("void **"), 64)
        expect(rc, SUCCESS); assert dt < 0.5, dt
        rc, dt = timed(lib.aclrtFreeHost, p)
        expect(rc, SUCCESS); assert dt < 0.5, dt
        assert query(s) == lib.ACL_STREAM_STATUS_NOT_READY
        gate.set()
        expect(lib.aclrtDestroyStream(s), SUCCESS)
    """,
    )


def test_given_tasks_on_all_streams_when_free_with_devsync_then_waits_for_every_stream(run_sim):
    run_sim(
        prelude=BLOCKER,
        code="""
        init()
        streams = [new_stream() for _ in range(3)]
        size = 1 << 20
        src = malloc_host(size)
        fill(src, size, b"K")
        outs = []
        gates = [block(s) for s in streams]
        for s in streams:
            out = malloc_host(size)
            expect(lib.aclrtMemcpyAsync(out, size, src, size, lib.ACL_MEMCPY_HOST_TO_HOST, s), SUCCESS)
            outs.append(out)
        # open the first gate quickly, the last one only after 0.4 s
        open_later(gates[0], 0.05); open_later(gates[1], 0.1); open_later(gates[2], 0.4)
        rc, dt = timed(lib.aclrtFreeHostWithDevSync, src)
        expect(rc, SUCCESS)
        assert dt >= 0.3, f"returned after {dt:.2f}s, before the last stream finished"
        for s in streams:
            assert query(s) == lib.ACL_STREAM_STATUS_COMPLETE
        for out in outs:
            assert read(out, size) == b"K" * size, "a task read the buffer after release"
    """,
    )


def test_given_other_device_stream_when_devsync_then_not_waited(run_sim):
    run_sim(
        prelude=BLOCKER,
        code="""
        import threading
        init()
        other = {}
        ready = threading.Event()
        def on_device1():
            lib.aclrtSetDevice(1)
            other["s"] = new_stream()
            other["gate"] = block(other["s"])
            ready.set()
        t = threading.Thread(target=on_device1); t.start(); t.join(); ready.wait()
        p = malloc_host(64)
        rc, dt = timed(lib.aclrtFreeHostWithDevSync, p)
        expect(rc, SUCCESS); assert dt < 0.5, dt
        rc, dt = timed(lib.aclrtSynchronizeDevice)
        expect(rc, SUCCESS); assert dt < 0.5, dt
        src = malloc_host(64)
        expect(lib.aclrtMemcpyAsync(src, 64, src, 64, 0, other["s"]), RT_STREAM_CONTEXT, "other device")
        other["gate"].set()
        expect(lib.aclrtSynchronizeStream(other["s"]), SUCCESS)
    """,
        env={"ACLSIM_DEVICE_COUNT": "2"},
    )


def test_given_memcpy_when_args_invalid_then_invalid_param(run_sim):
    run_sim("""
        init()
        a = malloc_host(256); b = malloc_host(256)
        d = ffi.new("void **"); expect(lib.aclrtMalloc(d, 256, 0), SUCCESS)
        fill(a, 256, b"m")
        expect(lib.aclrtMemcpy(d[0], 256, a, 256, lib.ACL_MEMCPY_HOST_TO_DEVICE), SUCCESS)
        expect(lib.aclrtMemcpy(b, 256, d[0], 256, lib.ACL_MEMCPY_DEVICE_TO_HOST), SUCCESS)
        assert read(b, 256) == b"m" * 256
        expect(lib.aclrtMemcpy(b, 100, a, 101, 0), INVALID_PARAM, "count > destMax")
        expect(lib.aclrtMemcpy(ffi.NULL, 100, a, 1, 0), INVALID_PARAM)
        expect(lib.aclrtMemcpy(b, 100, ffi.NULL, 1, 0), INVALID_PARAM)
        expect(lib.aclrtMemcpy(b, 100, a, 1, 99), INVALID_PARAM, "bad kind")
        expect(lib.aclrtMemcpy(b, 100, a, 0, 0), SUCCESS, "empty copy")
        expect(lib.aclrtMemcpyAsync(b, 100, a, 101, 0, ffi.NULL), INVALID_PARAM)
        expect(lib.aclrtMemcpyAsync(b, 100, a, 1, 0, ffi.cast("void *", 0x1234)), INVALID_PARAM, "bad stream")
        expect(lib.aclrtFree(d[0]), SUCCESS)
    """)


def test_given_no_device_when_stream_calls_then_context_null(run_sim):
    run_sim("""
        init(device=None)
        s = ffi.new("aclrtStream *")
        expect(lib.aclrtCreateStream(s), RT_CONTEXT_NULL)
        expect(lib.aclrtSynchronizeDevice(), RT_CONTEXT_NULL)
        expect(lib.aclrtMalloc(ffi.new("void **"), 64, 0), RT_CONTEXT_NULL)
        expect(lib.aclrtCreateStream(ffi.NULL), INVALID_PARAM)
    """)


def test_given_stream_workers_when_library_closed_then_it_stays_mapped(run_sim):
    # A stream's worker thread runs the library's code; were a dlclose (cffi's, at interpreter
    # shutdown) to unmap it, a worker scheduled afterwards would jump into nothing (SIGSEGV).
    run_sim("""
        import os
        init()
        s = ffi.new("aclrtStream *")
        expect(lib.aclrtCreateStream(s), SUCCESS, "a stream starts its worker")
        path = os.path.realpath(os.environ["ACLSIM_LIB"])
        def mapped():
            with open("/proc/self/maps") as maps:
                return any(line.rstrip().endswith(path) for line in maps)
        assert mapped()
        ffi.dlclose(lib)
        assert mapped(), "the library was unmapped under its stream worker"
    """)
