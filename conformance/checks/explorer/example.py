"""One example of an exploration: make calls, judge each against the state model, keep the path.

:meth:`Example.perform` is the heart of the explorer: it asks the generated model
(``acl_hostmem_generated.state_model.predict``) what a call must do in the current abstract state,
leaves out calls the model does not predict (and, on documented paths, calls whose
prediction is not documented evidence of a mandatory rule), makes the call, judges the
result, records the step and applies the model's effects. Every disagreement raises
:class:`Mismatch`, from one place, so that Hypothesis treats all of them as one failure.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated import state_model as model
from acl_hostmem_generated.teardown import ACQUIRES, RELEASES, RESOURCES
from acl_hostmem_generated.teardown import Step as TeardownStep

from ...harness.context import DRAIN_TRIES, keep_for_good, reclaim, remember_stuck
from ...harness.ledger import Entry, HandleType, Ledger
from .actions import Action
from .calls import OUTPUT, CheckRecord, Output, Request, Step, const, handle
from .driver import ThreadCallHung
from .facts import Facts
from .outputs import CHECKS, Observation
from .session import Failure, Mismatch, Session
from .state import Allocation, World

MARKERS = "markers_intact"
# How many ended registrations (the latest) are probed after every action.
ENDED_PROBES = 4


@dataclass
class Judgement:
    """A call judged against its prediction: the first problem (if any) and what the reproducers check."""

    code: int | None
    records: list[CheckRecord]
    problem: str | None = None
    kind: str = ""
    evidence: model.Evidence | None = None


class Example:
    """The abstract state and path of one example; made by the Hypothesis machine."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.driver = session.driver
        self.world = World(session.product, session.device)
        self.path: list[Step] = []
        self.actions: list[Action] = []
        # What the backend's answers say the example holds, whatever the model says: every range a
        # register call touched, the registrations and blocks it made and has not given back.
        self.ledger = Ledger()
        self.absent: set[int] = set()  # bases the teardown's unregistration answered "not registered" for
        self.stuck: set[int] = set()  # found at teardown: registrations no device would remove
        session.examples += 1
        session.driver.start_example()

    # ---- calls ----
    def predict(self, req: Request) -> model.Prediction | None:
        """The prediction for ``req``, or None when the explorer must not make the call."""
        if req.interface in self.world.product.missing:
            return None
        prediction = model.predict(req.interface, Facts(self.world, req))
        if prediction.expect == "skip":
            return None
        if self.session.documented_only and prediction.expect in ("success", "failure") \
                and not prediction.evidence.documented:
            return None
        return prediction

    def perform(self, req: Request, *, probe: bool = False) -> tuple[int, Output] | None:
        """Make the call if the model predicts it; judge, record and apply it. None when left out."""
        prediction = self.predict(req)
        if prediction is None:
            self.session.skipped += 1
            return None
        release, watch = self._gates_for(req, prediction)
        self.session.in_flight = (self, req, prediction, release, watch, probe)
        try:
            rc, out, obs = self.driver.call(req, release=release, watch=watch)
        except ThreadCallHung as exc:
            step = self._step(req, prediction, None, [], release, watch, probe)
            raise self._fail(step, str(exc), "hang", prediction.evidence, prediction) from None
        finally:
            self.session.in_flight = None
        self._remember(req, rc, out)
        verdict = self._judge(prediction, req, rc, out, obs)
        step = self._step(req, prediction, verdict.code, verdict.records, release, watch, probe)
        self.path.append(step)
        if verdict.problem is not None:
            step.result = acl.error_name(rc) if rc else "success"
            raise self._fail(step, verdict.problem, verdict.kind, verdict.evidence or prediction.evidence, prediction)
        if rc == 0 and prediction.expect == "success":
            req.released = obs.released
            self.world.apply(prediction.effects, req, out)
            if req.interface in ("aclrtMallocHost", "aclrtMallocHostWithCfg"):
                self._write_markers(self.world.allocations[req.bind])
        if obs.watchdog_fired or obs.released:
            self._settle(obs)
        return rc, out

    def _remember(self, req: Request, rc: int, out: Output) -> None:
        """What teardown must give back whatever the model thinks: every range a register call touched,
        every address handed out and not given back (a freed address handed out again is live again)."""
        resource = ACQUIRES.get(req.interface)
        if resource is not None and RESOURCES[resource].handle == "output":
            if rc == 0 and out and isinstance(out, int):  # a stream's handle is the model's to keep
                self.ledger.note(req.interface, out, ok=True)
        elif resource is not None:
            self.ledger.note(req.interface, req.pointer, ok=rc == 0, size=req.size)
        elif req.interface in RELEASES:
            self.ledger.note(req.interface, req.pointer, ok=rc == 0)

    def _gates_for(self, req: Request, prediction: model.Prediction) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(gates to open while the call may wait, gates to open if it waits too long).

        A call of an interface that synchronises the device (``implicit_sync: device`` in
        interfaces.yaml) gets the device's gates opened shortly after it starts, whatever
        its outcome; any other call is only watched.
        """
        if not self.world.streams:
            return (), ()
        blocked = self.world.blocked_streams()
        if not blocked:
            return (), ()
        device = self.world.threads[req.thread]
        waits = req.interface in self.session.device_syncing
        release = tuple(s.gate for s in blocked if waits and s.device == device and s.gate is not None)
        watch = tuple(s.gate for s in blocked if s.gate is not None and s.gate not in release)
        return release, watch

    def _judge(self, prediction: model.Prediction, req: Request, rc: int, out: Output, obs: Observation) -> Judgement:
        evidence = prediction.evidence
        check_code = evidence.code_documented if self.session.documented_only else evidence.strict
        verdict = Judgement(evidence.code_value if check_code else None, [])
        if prediction.expect == "success" and rc != 0:
            verdict.problem, verdict.kind = f"failed with {rc} {acl.error_name(rc)}, but must succeed", "outcome"
        elif prediction.expect == "failure" and rc == 0:
            verdict.problem, verdict.kind = "succeeded, but must fail", "outcome"
        elif prediction.expect == "failure" and verdict.code is not None and rc != verdict.code:
            verdict.problem, verdict.kind = (f"failed with {rc} {acl.error_name(rc)}, but the code must be "
                                             f"{verdict.code} {evidence.code} ({evidence.code_provenance})"), "code"
        if verdict.problem is not None or prediction.expect != "success":
            return verdict
        facts = Facts(self.world, req)
        for check in prediction.checks:
            if check.unless and getattr(facts, check.unless):
                continue
            if self.session.documented_only and not check.evidence.documented:
                continue
            if not facts.applies(check.evidence.rule):
                continue
            problem, record = CHECKS[check.name](self.world, req, out, obs)
            verdict.records.append(record)
            if problem is not None:
                verdict.problem, verdict.kind, verdict.evidence = problem, "check", check.evidence
                break
        return verdict

    def _step(self, req: Request, prediction: model.Prediction, code: int | None, records: list[CheckRecord],
              release: tuple[int, ...], watch: tuple[int, ...], probe: bool) -> Step:
        outputs = [name for name, sym in req.symbols.items() if sym is OUTPUT]
        return Step("call", req.interface, req.thread, tuple(req.symbols.items()),
                    tuple((name, req.bind) for name in outputs if req.bind), prediction.expect, code, tuple(records),
                    release, watch, probe=probe, note=prediction.clause)

    def _fail(self, step: Step, problem: str, kind: str, evidence: model.Evidence,
              prediction: model.Prediction) -> Mismatch:
        if not step.result:
            step.result = "no return"
        if step not in self.path:
            self.path.append(step)
        mismatch = Mismatch(step, problem, kind, evidence, prediction.clause, prediction.source)
        self.session.failures.append(Failure(list(self.path), list(self.actions), mismatch))
        if self.session.first_failure is None:
            self.session.first_failure = time.monotonic()
        return mismatch

    def hung(self, req: Request, prediction: model.Prediction, release: tuple[int, ...], watch: tuple[int, ...],
             probe: bool, seconds: float) -> Failure:
        """The failure of a call that has not returned after ``seconds`` (called from the monitoring thread)."""
        step = self._step(req, prediction, None, [], release, watch, probe)
        problem = f"{req.interface} did not return within {seconds:.1f} s"
        self._fail(step, problem, "hang", prediction.evidence, prediction)
        return self.session.failures[-1]

    def _settle(self, obs: Observation) -> None:
        """Streams whose gates were opened during a call: wait for them (recorded), so that they are idle."""
        opened = set(obs.watched if obs.watchdog_fired else ()) | set(obs.released)
        for stream in list(self.world.streams.values()):
            if stream.gate in opened:
                stream.blocked = False
                self.perform(Request("aclrtSynchronizeStream", values={"stream": stream.handle},
                                     symbols={"stream": handle(stream.var)}, stream=stream.var))

    # ---- markers ----
    def _write_markers(self, allocation: Allocation) -> None:
        offsets = allocation.offsets
        words = allocation.words
        if not offsets or words is None:  # an allocation has its words where it has markers
            return
        for offset in offsets:
            words[offset // 8] = allocation.marker
        self.path.append(Step("mark", var=allocation.var, size=allocation.size, marker=allocation.marker,
                              extra={"offsets": list(offsets)}))

    def check_markers(self) -> None:
        """The markers of every live allocation still hold what was written."""
        evidence = model.INVARIANTS[MARKERS][2]
        assert evidence is not None
        if self.session.documented_only and not evidence.documented:
            return
        for allocation in self.world.allocations.values():
            offsets = allocation.offsets
            words = allocation.words
            if words is None:  # no markers
                continue
            for offset in offsets:
                value = words[offset // 8]
                if value != allocation.marker:
                    step = Step("markers", var=allocation.var, size=allocation.size, marker=allocation.marker,
                                extra={"offsets": list(offsets)}, result=f"{value:#x} at +{offset}")
                    self.path.append(step)
                    problem = (f"the marker at {allocation.var}+{offset} reads {value:#x}, not {allocation.marker:#x}: "
                               "a call wrote into a live allocation")
                    marked = model.Prediction("", MARKERS, "spec/state_model.yaml", "success", evidence, (), ())
                    raise self._fail(step, problem, "check", evidence, marked)

    # ---- probes ----
    def probe(self) -> None:
        """Ask each thread with a device for the device address of every live registration of its device (also
        those that outlived their memory) and of the latest removed ones, and the main thread for the status of
        blocked streams."""
        world = self.world
        main = world.threads[0]
        ended = [(base, sym) for base, sym in world.removed.items()
                 if world.allocation_containing(base) or world.region_containing(base)][-ENDED_PROBES:]
        # Every thread with a device asks, not the main one alone: an answer a thread remembers for itself
        # (a registration another thread removed) shows only where that thread asks again.
        for thread, device in enumerate(world.threads):
            if device is None:
                continue
            targets = [(reg.base, reg.symbol) for reg in world.registrations.values() if reg.device == device]
            for base, symbol in targets + ended:
                self.perform(Request("aclrtHostGetDevicePointer", thread=thread, values={"pHost": base, "flag": 0},
                                     symbols={"pHost": symbol, "flag": const(0), "pDevice": OUTPUT},
                                     pointer=base, bind=world.new_var("d")), probe=True)
        for stream in world.blocked_streams(main):
            self.perform(Request("aclrtStreamQuery", values={"stream": stream.handle},
                                 symbols={"stream": handle(stream.var), "status": OUTPUT}, stream=stream.var,
                                 bind=world.new_var("q")), probe=True)

    # ---- the end ----
    def _unregister_into(self, removed: set[int]) -> Callable[..., int]:
        """aclrtHostUnregister (raw) that adds the bases it removed to ``removed``."""
        lib = self.driver.lib

        def unregister(base: int, raw: bool = True) -> int:
            code = int(lib.aclrtHostUnregister(base, raw=raw))
            if code == acl.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED:
                self.absent.add(base)
            if code == 0:
                removed.add(base)
                # A second registration the backend took of the range must not outlive the example.
                for _ in range(DRAIN_TRIES):
                    if lib.aclrtHostUnregister(base, raw=raw) != 0:
                        break
            return code

        return unregister

    def _stuck(self, removed: set[int]) -> set[int]:
        """The registrations that outlive the example: made (as the model or the backend's answer says),
        removed by no device at teardown, and still mapped on some device (one that no longer answers
        went another way, e.g. with its memory)."""
        held = dict.fromkeys(e.handle for e in self.ledger.held("registration", newest_first=False)
                             if isinstance(e.handle, int))
        candidates = (set(self.world.registrations) | set(held)) - removed
        lib = self.driver.lib
        found: set[int] = set()
        for device in range(max(self.world.product.device_count, 1)) if candidates else ():
            lib.aclrtSetDevice(device, raw=True)
            found |= {base for base in candidates - found if lib.aclrtHostGetDevicePointer(base, 0, raw=True)[0] == 0}
        # A device pointer alone does not prove a registration: a backend may answer one for removed
        # memory where no refusal is promised. Where unregistering said "not registered", a fresh
        # registration of the first page decides: it succeeds only where nothing is left.
        return {base for base in found if base not in self.absent or not self._registers_afresh(base)}

    def _registers_afresh(self, base: int) -> bool:
        """Whether one page at ``base`` registers (and is unregistered again): nothing is left there."""
        lib = self.driver.lib
        page = self.world.product.host_page
        if lib.aclrtHostRegisterV2(base, page, acl.ACL_HOST_REG_MAPPED, raw=True) != 0:
            return False
        for _ in range(DRAIN_TRIES):
            if lib.aclrtHostUnregister(base, raw=True) != 0:
                break
        return True

    # ---- teardown: the ledger's steps, in the spec's order, over what the model and the backend say is held ----
    def _hold_what_the_model_holds(self) -> None:
        """Enter the handles only the model follows into the ledger: streams (cdata, which the answers
        are not noted by) and the device buffer, each with the device it was made on."""
        ledger, world = self.ledger, self.world
        if world.device_buffer is not None:
            ledger.acquire("device_memory", world.device_buffer[1], device=world.device_buffer_device, once=True)
        for stream in world.streams.values():
            ledger.acquire("stream", stream.handle, device=stream.device)

    def _entries(self, step: TeardownStep, kind: HandleType) -> list[Entry]:
        """What the example gives back at ``step``: what the model holds and what the backend's answers say.

        A drained kind (registrations): every handle a call touched, whatever it answered. A kind kept
        under leaked handles (host memory): every block the model holds (with its size) and every one
        handed out and not given back. The two are enumerated as sets, in the order the explorer has
        always given them back in: the simulator hands freed blocks out again in the order they were
        freed, so this order decides the addresses later examples get and, with them, the path.
        """
        ledger, world = self.ledger, self.world
        if kind.drained:
            return [Entry(base) for base in set(world.registrations) | _as_set(ledger.touched(step.resource))]
        if kind.kept_under is not None:
            sizes = {a.base: a.size for a in world.allocations.values()}
            blocks = {*sizes, *(_as_set(ledger.touched(step.resource)) - ledger.gone(step.resource))}
            return [Entry(base, sizes.get(base)) for base in blocks]
        return ledger.held(step.resource)

    def _give_back_kept(self, step: TeardownStep, kind: HandleType, under: str, removed: set[int],
                        raw: bool = True) -> None:
        """A step of a kind kept under leaked handles (one teardown call in the figures): find the
        registrations no device would remove, give back every block except those under one, and get
        back the freed memory such a registration outlived, so that no later case is handed it."""
        self.stuck = self._stuck(removed)
        for base in self.stuck:
            self.ledger.leak(under, base)
        release = getattr(self.driver.lib, step.call)
        for call in self.ledger.calls(step, entries=self._entries(step, kind)):
            if not call.kept:
                release(call.entry.handle, raw=raw)
        for reg in self.stuck:
            freed = next(((b, n) for b, n in self.world.freed_sizes.items() if b <= reg < b + n), None)
            if freed is not None:
                reclaim(self.driver.lib, *freed)

    def _quietly(self, fn: Callable[..., object], *args: object) -> None:
        """One teardown call, made raw, errors ignored (a faulty backend's teardown goes on)."""
        self.driver.calls += 1
        try:
            fn(*args, raw=True)
        except Exception:  # noqa: BLE001 - teardown of a faulty backend goes on
            pass

    def teardown(self) -> None:
        """Release everything the example holds (unrecorded, errors ignored); restore the main thread's device.

        Besides what the model knows of, every range a register call touched is unregistered
        (under every device: a mapping belongs to the device it was made on) and every block a
        call handed out is freed, so that a faulty backend's surprises do not leak into the
        next example.
        """
        lib = self.driver.lib
        world = self.world
        self.driver.open_gates(tuple(self.driver.blockers))
        removed: set[int] = set()
        self._hold_what_the_model_holds()
        devices = range(max(world.product.device_count, 1))
        for step, kind in self.ledger.teardown():
            if kind.kept_under is not None:
                self._quietly(self._give_back_kept, step, kind, kind.kept_under, removed)
                continue
            release = self._unregister_into(removed) if kind.drained else getattr(lib, step.call)
            for call in self.ledger.calls(step, devices, self._entries(step, kind)):
                if call.device is not None:
                    self._quietly(lib.aclrtSetDevice, call.device)
                self._quietly(release, call.entry.handle)
        self._quietly(lib.aclrtSetDevice, self.session.device)
        sizes = {entry.handle: entry.size for entry in self.ledger.held("registration")}  # as the backend answered
        stuck = self.stuck
        for base in stuck:
            known = world.registrations.get(base)
            remember_stuck(base, known.size if known else sizes.get(base) or 1, world.product.host_page)
        for region in world.regions.values():
            if any(region.contains(base) for base in stuck):
                keep_for_good(region.mapping, region.view)
                continue
            acl.ffi.release(region.view)
            region.mapping.close()
        self.driver.end_example()
        self.ledger.clear()
        # The machine that holds this example is kept alive by a reference cycle until the cyclic
        # collector runs (paused during exploration): free the path now (a failure holds its own copy).
        self.path, self.actions = [], []


def _as_set(handles: Iterable[object]) -> set[int]:
    """The integer handles as a set built one by one in the order given: the table (and so the order
    it enumerates in) is the one the explorer's books have always built."""
    built: set[int] = set()
    for item in handles:
        if isinstance(item, int):
            built.add(item)
    return built
