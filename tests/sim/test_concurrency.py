"""Many threads at once: allocation/registration storms and the exactly-one-wins race."""

from __future__ import annotations

STORM = """
import threading, random
init()
errors = []
def worker(seed):
    lib.aclrtSetDevice(0)
    rnd = random.Random(seed)
    try:
        for i in range(150):
            size = rnd.choice([64, 100, 4096, 5000, 70000, 1 << 20])
            p = malloc_host(size)
            assert addr(p) % 64 == 0
            fill(p, size, bytes([seed]))
            if size >= 70000:
                rc, d = register(p, size)
                expect(rc, SUCCESS, "register in storm")
                rc, d2 = devptr(p); expect(rc, SUCCESS); assert addr(d2) == addr(d)
                expect(lib.aclrtHostUnregister(p), SUCCESS)
            assert read(p, size) == bytes([seed]) * size, "another thread wrote here"
            free = lib.aclrtFreeHost if i % 3 else lib.aclrtFreeHostWithDevSync
            expect(free(p), SUCCESS)
    except BaseException as exc:  # reported by the main thread
        errors.append(repr(exc))
threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
assert not errors, errors
st = stats()
assert (st.live_host_allocs, st.live_host_bytes, st.live_registrations) == (0, 0, 0), st
"""

RACE = """
import threading
init()
wins_per_round = []
for round_ in range(ROUNDS):
    p = malloc_host(1 << 20)
    barrier = threading.Barrier(6)
    results = []
    def racer(v2):
        lib.aclrtSetDevice(0)
        barrier.wait()
        if v2:
            results.append(lib.aclrtHostRegisterV2(p, 1 << 20, REG_MAPPED))
        else:
            results.append(register(p, 1 << 20)[0])
    ts = [threading.Thread(target=racer, args=(i % 2,)) for i in range(6)]
    [t.start() for t in ts]; [t.join() for t in ts]
    wins = results.count(SUCCESS)
    assert set(results) <= {SUCCESS, ALREADY_REGISTERED}, results
    wins_per_round.append(wins)
    while lib.aclrtHostUnregister(p) == SUCCESS:
        pass
    expect(lib.aclrtFreeHost(p), SUCCESS)
print("wins", wins_per_round)
"""


def test_given_eight_threads_when_alloc_register_free_storm_then_consistent(run_sim):
    run_sim(STORM, timeout=60)


def test_given_racing_registrations_of_one_range_then_exactly_one_wins(run_sim):
    r = run_sim("ROUNDS = 40\n" + RACE, timeout=60)
    wins = eval(r.stdout.split("wins", 1)[1])
    assert wins == [1] * 40, wins


def test_given_register_race_fault_then_several_win(run_sim):
    r = run_sim("ROUNDS = 5\n" + RACE, env={"ACLSIM_FAULTS": "register_race"}, timeout=60)
    wins = eval(r.stdout.split("wins", 1)[1])
    assert max(wins) > 1, wins
