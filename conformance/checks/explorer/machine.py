"""The Hypothesis state machine that draws the explorer's call sequences.

A step is one action (a call of one of the nine with valid or documented-invalid
arguments, stream creation and blocking work, a device switch, pageable memory), or a
burst of up to BURST actions drawn by a generator seeded from the step, which makes long
sequences cheap (Hypothesis's own cost per step is what bounds the explorer's rate). Each
action builds a :class:`~.calls.Request` and hands it to :meth:`~.example.Example.perform`,
which judges it against the state model; after every action the markers in live
allocations are checked and every registration and blocked stream is probed. Targets are
drawn as small indexes into the live objects, so that shrinking moves towards the first
object; the explorer shortens a failure further itself (:mod:`.finding`).
"""

from __future__ import annotations

import gc
import mmap
import random
from typing import TypeVar

from hypothesis import strategies as st
from hypothesis.control import current_build_context
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated import state_model as model

from .actions import (
    ACTION_NAMES,
    ACTIONS,
    BURST,
    BURST_WEIGHTS,
    DEVICE_BUFFER,
    INVALID_INTERFACES,
    LARGEST_CODE,
    MANY_SIZES,
    MAX_ALLOCATIONS,
    MAX_REGIONS,
    MAX_REGISTRATIONS,
    MAX_STREAMS,
    NEEDS,
    V1_TYPES,
    V2_FLAGS,
    WEIGHTED_ACTIONS,
    Field,
    decode,
    malloc_config,
    shifted,
)
from .calls import NULL, OUTPUT, PAGE, Request, Step, Sym, addr, const, handle, integer
from .example import Example
from .session import Session
from .state import Allocation, Region, World

_T = TypeVar("_T")


class ExplorerMachine(RuleBasedStateMachine):
    """Random interleavings of the nine calls, judged by the state model at every step."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.ex = Example(session)

    # ---- helpers ----
    @property
    def world(self) -> World:
        """The example's abstract state."""
        return self.ex.world

    def _pick(self, items: list[_T], pick: int) -> _T | None:
        return items[pick % len(items)] if items else None

    def _pages_of(self, pick: int, pageable: bool) -> tuple[int, int, str] | None:
        """(first page address, pages available, variable) of an allocation or pageable mapping."""
        if pageable:
            region = self._pick(list(self.world.regions.values()), pick)
            return (region.base, region.size // PAGE, region.var) if region else None
        spans = []
        for a in self.world.allocations.values():
            first = -(-a.base // PAGE) * PAGE
            if (a.end - first) // PAGE >= 1:
                spans.append((first, (a.end - first) // PAGE, a.var))
        return self._pick(spans, pick)

    def _known_registration(self, pick: int, interior: bool) -> tuple[int, Sym] | None:
        known = [(r.base, r.symbol) for r in self.world.registrations.values()]
        known += list(self.world.removed.items())
        chosen = self._pick(known, pick)
        if chosen is None:
            return None
        base, sym = chosen
        return (base + 64, shifted(sym, 64)) if interior else (base, sym)

    def _allocation_request(self, api: str, size: int, thread: int, cfg_kind: str = "null") -> Request:
        var = self.world.new_var("h")
        if api == "malloc":
            return Request("aclrtMallocHost", thread, {"size": size}, {"hostPtr": OUTPUT, "size": const(size)},
                           size=size, bind=var)
        cfg, sym = malloc_config(cfg_kind, self._other_device(thread))
        return Request("aclrtMallocHostWithCfg", thread, {"size": size, "cfg": cfg.ptr if cfg else None},
                       {"ptr": OUTPUT, "size": const(size), "cfg": sym}, size=size, bind=var, cfg_kind=cfg_kind,
                       keep=cfg)

    def _other_device(self, thread: int) -> int:
        """A device id that is not the calling thread's current device."""
        count: int = self.world.product.device_count
        current = self.world.threads[thread] or 0
        return (current + 1) % count if count > 1 else count

    def _register_request(self, flavour: str, pointer: int, size: int, sym: Sym, thread: int) -> Request:
        if flavour in V1_TYPES:
            return Request("aclrtHostRegister", thread, {"ptr": pointer, "size": size, "type": V1_TYPES[flavour]},
                           {"ptr": sym, "size": const(size), "type": const(V1_TYPES[flavour]), "devPtr": OUTPUT},
                           pointer=pointer, size=size, bind=self.world.new_var("d"))
        flag = V2_FLAGS[flavour]
        return Request("aclrtHostRegisterV2", thread, {"ptr": pointer, "size": size, "flag": flag},
                       {"ptr": sym, "size": const(size), "flag": const(flag)}, pointer=pointer, size=size)

    def _device_pointer_request(self, pointer: int, sym: Sym, thread: int) -> Request:
        return Request("aclrtHostGetDevicePointer", thread, {"pHost": pointer, "flag": 0},
                       {"pHost": sym, "pDevice": OUTPUT, "flag": const(0)}, pointer=pointer,
                       bind=self.world.new_var("d"))

    # ---- actions (the rules below and the bursts draw their fields) ----
    def act(self, name: str, fields: tuple[Field, ...]) -> None:
        """Perform one action with its drawn fields, then check the invariants.

        Once Hypothesis has shrunk a failure long enough, actions do nothing except in the final
        replay of the shortest failing example (the explorer's own minimiser goes on from there).
        """
        session = self.session
        if session.abandoned:
            return
        if not session.rerunning and (session.budget_is_spent() or (session.shrinking_is_over()
                                                                     and not current_build_context().is_final)):
            return
        self.ex.actions.append((name, fields))
        self.session.steps += 1
        if session.collect_every and session.steps % session.collect_every == 0:
            gc.collect()
        self.session.transcript.append(f"{name}{fields}")
        getattr(self, f"_{name}")(*fields)
        self.the_model_holds()

    def _allocate(self, kind: str, size: int, thread: int) -> None:
        if len(self.world.allocations) >= MAX_ALLOCATIONS:
            return
        api = "malloc" if kind == "malloc" else "malloc_cfg"
        self.ex.perform(self._allocation_request(api, size, thread, "null" if kind == "malloc" else kind))

    def _allocate_many(self, count: int) -> None:
        for i in range(count):
            if len(self.world.allocations) < MAX_ALLOCATIONS:
                self.ex.perform(self._allocation_request("malloc", MANY_SIZES[i], 0))

    def _free(self, pick: int, api: str, thread: int) -> None:
        allocation: Allocation | None = self._pick(list(self.world.allocations.values()), pick)
        if allocation is not None:
            self.ex.perform(Request(api, thread, {"hostPtr": allocation.base}, {"hostPtr": addr(allocation.var)},
                                    pointer=allocation.base))

    def _free_in_use(self, pick: int, thread: int) -> None:
        read = sorted({var for s in self.world.blocked_streams() for var in s.reads if var in self.world.allocations})
        var = self._pick(read, pick)
        if var is not None:
            allocation = self.world.allocations[var]
            self.ex.perform(Request("aclrtFreeHostWithDevSync", thread, {"hostPtr": allocation.base},
                                    {"hostPtr": addr(var)}, pointer=allocation.base))

    def _free_foreign(self, kind: str, pick: int, api: str, thread: int) -> None:
        target: tuple[int, Sym] | None = None
        if kind == "interior":
            allocation = self._pick(list(self.world.allocations.values()), pick)
            target = (allocation.base + 64, addr(allocation.var, 64)) if allocation and allocation.size > 64 else None
        elif kind == "freed":
            freed = self._pick(list(self.world.freed.items()), pick)
            target = (freed[0], addr(freed[1])) if freed else None
        else:
            region = self._pick(list(self.world.regions.values()), pick)
            target = (region.base, addr(region.var)) if region else None
        if target is not None:
            self.ex.perform(Request(api, thread, {"hostPtr": target[0]}, {"hostPtr": target[1]}, pointer=target[0]))

    def _register(self, pick: int, page: int, pages: int, flavour: str, pageable: bool, thread: int) -> None:
        span = self._pages_of(pick, pageable)
        if span is None or len(self.world.registrations) >= MAX_REGISTRATIONS:
            return
        first, available, var = span
        page %= available
        pages = min(pages, available - page)
        self.ex.perform(self._register_request(flavour, first + page * PAGE, pages * PAGE, addr(var, 0, page), thread))

    def _register_again(self, pick: int, flavour: str, thread: int) -> None:
        removed = self._pick(list(self.world.removed.items()), pick)
        if removed is not None and len(self.world.registrations) < MAX_REGISTRATIONS:
            base, sym = removed
            self.ex.perform(self._register_request(flavour, base, self.world.removed_sizes[base], sym, thread))

    def _device_pointer(self, pick: int, interior: bool, thread: int) -> None:
        target = self._known_registration(pick, interior)
        if target is not None:
            self.ex.perform(self._device_pointer_request(target[0], target[1], thread))

    def _unregister(self, pick: int, interior: bool, thread: int) -> None:
        target = self._known_registration(pick, interior)
        if target is not None:
            self.ex.perform(Request("aclrtHostUnregister", thread, {"ptr": target[0]}, {"ptr": target[1]},
                                    pointer=target[0]))

    def _capabilities(self, device: int, hac: int, thread: int) -> None:
        device %= self.world.product.device_count
        self.ex.perform(Request("aclrtHostMemMapCapabilities", thread, {"deviceId": device, "hacType": hac},
                                {"deviceId": const(device), "hacType": const(hac), "capabilities": OUTPUT},
                                bind=self.world.new_var("c")))

    def _invalid(self, which: int, condition: int, pick: int, thread: int) -> None:
        interface = INVALID_INTERFACES[which % len(INVALID_INTERFACES)]
        conditions = model.INVALID_ARGUMENTS[interface]
        param, kind, value = conditions[condition % len(conditions)]
        req = self._valid_request(interface, pick, thread)
        if req is not None and self._corrupt(req, param, kind, value, pick):
            self.ex.perform(req)

    def _valid_request(self, interface: str, pick: int, thread: int) -> Request | None:
        """A call of ``interface`` that would succeed, to spoil one argument of."""
        if interface == "aclrtMallocHost":
            return self._allocation_request("malloc", 4096, thread)
        if interface == "aclrtMallocHostWithCfg":
            return self._allocation_request("malloc_cfg", 4096, thread)
        if interface in ("aclrtFreeHost", "aclrtFreeHostWithDevSync", "aclrtHostUnregister"):
            name = "ptr" if interface == "aclrtHostUnregister" else "hostPtr"
            return Request(interface, thread, {name: 0}, {name: NULL})
        if interface in ("aclrtHostRegister", "aclrtHostRegisterV2", "aclrtHostGetDevicePointer"):
            span = self._pages_of(pick, False)
            if span is None:
                return None
            first, _available, var = span
            if interface == "aclrtHostGetDevicePointer":
                reg = self._pick(list(self.world.registrations.values()), pick)
                return self._device_pointer_request(reg.base, reg.symbol, thread) if reg else \
                    self._device_pointer_request(first, addr(var, 0, 0), thread)
            return self._register_request("v1" if interface == "aclrtHostRegister" else "v2", first, PAGE,
                                          addr(var, 0, 0), thread)
        device = self.world.threads[0] or 0
        return Request(interface, thread, {"deviceId": device, "hacType": acl.ACL_RT_HAC_TYPE_AIC},
                       {"deviceId": const(device), "hacType": const(acl.ACL_RT_HAC_TYPE_AIC), "capabilities": OUTPUT},
                       bind=self.world.new_var("c"))

    def _corrupt(self, req: Request, param: str, kind: str, value: str | int, pick: int) -> bool:
        """Apply one error condition to ``req``; False when this state offers no such argument."""
        if kind == "is_null":
            req.values[param] = None
            req.symbols[param] = NULL
        elif kind == "equals":
            number = integer(self.world.product.device_count if value == "@device_count" else value, param)
            req.values[param] = number
            req.symbols[param] = const(number)
        elif kind == "offset":
            offset = integer(value, f"the offset of {param}")
            req.values[param] = integer(req.values[param], param) + offset
            req.symbols[param] = shifted(req.symbols[param], offset)
            req.pointer += offset
        elif kind == "config":
            if not isinstance(value, str):  # configurations are named (malloc_config)
                raise KeyError(value)
            cfg, sym = malloc_config(value, self._other_device(req.thread))
            if cfg is None:  # only the valid "null" configuration is no config at all
                raise AttributeError("'NoneType' object has no attribute 'ptr'")
            req.values[param], req.symbols[param], req.keep, req.cfg_kind = cfg.ptr, sym, cfg, value
        elif kind == "unregistered":
            if self.world.registration_containing(integer(req.values[param], param)) is not None:
                return False
        req.tags[param] = (kind, value)
        return True

    def _create_stream(self) -> None:
        if len(self.world.streams) < MAX_STREAMS:
            self.ex.perform(Request("aclrtCreateStream", 0, {}, {"stream": OUTPUT}, bind=self.world.new_var("s")))

    def _block_stream(self, pick: int, read: bool, source: int) -> None:
        stream = self._pick([s for s in self.world.streams.values() if not s.blocked], pick)
        if stream is None:
            return
        gate = self.ex.driver.next_gate()
        done = self.ex.perform(Request("aclrtLaunchHostFunc", 0, {"stream": stream.handle},
                                       {"stream": handle(stream.var), "fn": Sym("gate", gate), "args": NULL},
                                       stream=stream.var, gate=gate))
        allocation = self._pick(list(self.world.allocations.values()), source)
        if not done or done[0] != 0 or not read or allocation is None:
            return
        buffer = self._device_buffer()
        if buffer is None:
            return
        var, target = buffer
        self.ex.perform(Request(
            "aclrtMemcpyAsync", 0,
            {"dst": target, "destMax": DEVICE_BUFFER, "src": allocation.base, "count": allocation.size,
             "kind": acl.ACL_MEMCPY_HOST_TO_DEVICE, "stream": stream.handle},
            {"dst": handle(var), "destMax": const(DEVICE_BUFFER), "src": addr(allocation.var),
             "count": const(allocation.size), "kind": const(acl.ACL_MEMCPY_HOST_TO_DEVICE),
             "stream": handle(stream.var)},
            stream=stream.var, reads=allocation.var))

    def _device_buffer(self) -> tuple[str, int] | None:
        """The device buffer queued copies write to (variable, address), allocated on first use; None when that
        failed."""
        if self.world.device_buffer is None:
            self.ex.perform(Request("aclrtMalloc", 0, {"size": DEVICE_BUFFER, "policy": acl.ACL_MEM_MALLOC_HUGE_FIRST},
                                    {"devPtr": OUTPUT, "size": const(DEVICE_BUFFER),
                                     "policy": const(acl.ACL_MEM_MALLOC_HUGE_FIRST)},
                                    bind=self.world.new_var("b")))
        return self.world.device_buffer

    def _unblock_stream(self, pick: int) -> None:
        stream = self._pick(self.world.blocked_streams(), pick)
        if stream is None:
            return
        gate = stream.gate
        if gate is None:  # a stream is blocked by its gate's callback only (effect_block_stream)
            raise KeyError(f"{stream.var} is blocked by no gate")
        self.ex.driver.open_gates((gate,))
        self.ex.path.append(Step("open", gate=gate))
        stream.blocked = False
        self.ex.perform(Request("aclrtSynchronizeStream", 0, {"stream": stream.handle},
                                {"stream": handle(stream.var)}, stream=stream.var))

    def _destroy_stream(self, pick: int) -> None:
        stream = self._pick(list(self.world.streams.values()), pick)
        if stream is not None:
            self.ex.perform(Request("aclrtDestroyStream", 0, {"stream": stream.handle},
                                    {"stream": handle(stream.var)}, stream=stream.var))

    def _set_device(self, thread: int, device: int) -> None:
        device %= self.world.product.device_count
        self.ex.perform(Request("aclrtSetDevice", thread, {"deviceId": device}, {"deviceId": const(device)}))

    def _map_pageable(self, pages: int) -> None:
        if len(self.world.regions) >= MAX_REGIONS:
            return
        mapping = mmap.mmap(-1, pages * PAGE)
        view = acl.ffi.from_buffer(mapping)
        var = self.world.new_var("m")
        self.world.regions[var] = Region(var, acl.address(view), pages * PAGE, mapping, view)
        self.ex.path.append(Step("map", var=var, size=pages * PAGE))

    # ---- the rules: one action at a time (its kind, and its fields as one number), or a burst ----
    @rule(kind=st.sampled_from(WEIGHTED_ACTIONS), code=st.integers(0, LARGEST_CODE))
    def action(self, kind: str, code: int) -> None:
        """One action: one of the nine calls, a stream or device change, pageable memory."""
        self.act(kind, decode(code, ACTIONS[kind]))

    def _burst(self, seed: int, length: int) -> None:
        rng = random.Random(seed)
        world = self.world
        for _ in range(length):
            names = [n for n in ACTION_NAMES if n not in NEEDS or NEEDS[n](world)]
            name = rng.choices(names, [BURST_WEIGHTS[n] for n in names])[0]
            self.act(name, tuple(rng.choice(choices) for choices in ACTIONS[name]))

    @initialize(second=st.booleans())
    def start(self, second: bool) -> None:
        """Half the examples start with the second thread on the main thread's device."""
        if second:
            self.act("set_device", (1, self.world.threads[0] or 0))

    @rule(seed=st.integers(0, 2**20), length=st.integers(1, BURST))
    def burst(self, seed: int, length: int) -> None:
        """Up to BURST actions drawn by a seeded generator: long sequences at little drawing cost."""
        self._burst(seed, length)

    # ---- after every action ----
    def the_model_holds(self) -> None:
        """Markers intact; every registration and blocked stream answers as the model predicts."""
        self.ex.check_markers()
        self.ex.probe()

    def teardown(self) -> None:
        """Release what the example holds (unless the exploration was given up: the monitor released it then)."""
        if not self.session.abandoned:
            self.ex.teardown()
