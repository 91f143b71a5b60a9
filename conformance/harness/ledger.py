"""One ledger of what a holder acquired, and one declaration per kind of how it is given back.

The spec says which calls acquire each kind of resource and which give it back
(``RESOURCES``), and the order teardown runs in (``TEARDOWN``); both are generated into
``acl_hostmem_generated.teardown``. :data:`HANDLES` adds, once per kind and in the spirit
of Unified Runtime's handle declarations, what every holder needs to give it back alike:
the order among the handles of one kind, the set-up promise a refused release rests on,
whether the record of a release names the handle, and what counts as leaked.

A :class:`Ledger` keeps one holder's books: a case's context (``harness/context.py``), an
explorer example and a finding's replay script (``checks/explorer``). :meth:`Ledger.teardown`
walks the spec's steps and :meth:`Ledger.calls` spells each one's calls over what is held,
with the device to make current first; the holder only says how a call is made (recorded,
raw, or as a line of the script). The explorer and the replay enumerate a kind's handles in
the order they always have (see their ``teardown``): the simulator hands freed blocks out
again in the order they were freed, so that order decides the addresses of what runs next.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from acl_hostmem_generated.teardown import ACQUIRES, RELEASES, RESOURCES, TEARDOWN, Step


@dataclass(frozen=True)
class HandleType:
    """How one kind of resource of the generated ``RESOURCES`` is given back, whoever holds it."""

    newest_first: bool  # released in the reverse order of acquisition
    promise: str  # the set-up step (setup_promises) a refused release rests on, or "instrument"
    named: bool  # a release's record names the handle: "aclrtFreeHost(0x1000)", else only the call
    # A backend may hold it more than once, or despite refusing the call: every handle an acquiring
    # call named (Ledger.touched) is given back again until the backend refuses.
    drained: bool = False
    # A refused release leaves it held for good: it outlives its holder (Ledger.leak) and what lies
    # under it must stay out of later cases' reach.
    leaks_if_refused: bool = False
    # Not given back while a leaked handle of that kind lies inside it: freeing it would hand the same
    # addresses to the next holder, whose acquisitions would collide with the leaked one.
    kept_under: str | None = None


#: The declaration of each kind of resource in RESOURCES (a test fails on a kind without one).
HANDLES: dict[str, HandleType] = {
    "registration": HandleType(newest_first=True, promise="unregister", named=True, drained=True,
                               leaks_if_refused=True),
    "host_memory": HandleType(newest_first=True, promise="free", named=True, kept_under="registration"),
    "device_memory": HandleType(newest_first=True, promise="instrument", named=True),
    "stream": HandleType(newest_first=False, promise="instrument", named=False),
}


def undeclared() -> list[str]:
    """The kinds of resource in the generated RESOURCES that :data:`HANDLES` declares no release for."""
    return [name for name in RESOURCES if name not in HANDLES]


@dataclass(frozen=True)
class Entry:
    """One held handle: what names it, and what its release needs to know."""

    handle: object  # a pointer, a stream, or (in a replay script) the expression naming it
    size: int | None = None  # bytes, where the holder knows them: kept_under compares ranges
    device: int | None = None  # the device it was acquired on, where it must be given back under it
    promise: str | None = None  # the set-up step its release rests on, where not its kind's

    def holds(self, point: object) -> bool:
        """Whether ``point`` lies inside this handle's range (only the handle itself when its size is unknown)."""
        if self.size is None or not isinstance(self.handle, int) or not isinstance(point, int):
            return self.handle == point
        return self.handle <= point < self.handle + self.size


@dataclass(frozen=True)
class Call:
    """One call of teardown: ``step.call`` on ``entry``, with ``device`` made current first (None: as it is)."""

    step: Step
    entry: Entry
    device: int | None = None
    kept: bool = False  # kept_under a leaked handle: not to be given back, but kept for good


class Ledger:
    """What one holder acquired and still holds, by kind of resource (thread-safe: a case's helper
    threads acquire too)."""

    def __init__(self) -> None:
        self._held: dict[str, list[Entry]] = {name: [] for name in RESOURCES}
        self._touched: dict[str, dict[object, Entry]] = {name: {} for name in RESOURCES}
        self._leaked: dict[str, list[object]] = {name: [] for name in RESOURCES}
        self._gone: dict[str, set[object]] = {name: set() for name in RESOURCES}
        self._lock = threading.Lock()

    # ---- books ----
    def acquire(self, resource: str, handle: object, *, size: int | None = None, device: int | None = None,
                promise: str | None = None, once: bool = False) -> None:
        """``handle`` of ``resource`` is held until given back; ``once`` replaces an entry already held for it."""
        entry = Entry(handle, size, device, promise)
        with self._lock:
            self._gone[resource].discard(handle)
            held = self._held[resource]
            if once:
                at = next((i for i, e in enumerate(held) if e.handle == handle), None)
                if at is not None:
                    held[at] = entry
                    return
            held.append(entry)

    def give_back(self, resource: str, handle: object) -> None:
        """The holder gave ``handle`` back itself (the first entry held for it; noted as gone even if none is)."""
        with self._lock:
            self._gone[resource].add(handle)
            held = self._held[resource]
            at = next((i for i, e in enumerate(held) if e.handle == handle), None)
            if at is not None:
                del held[at]

    def touch(self, resource: str, handle: object, size: int | None = None, promise: str | None = None) -> None:
        """An acquiring call named ``handle`` (of ``size`` bytes); the latest call decides size and promise."""
        with self._lock:
            self._touched[resource][handle] = Entry(handle, size, None, promise)

    def note(self, function: str, handle: object, *, ok: bool, size: int | None = None) -> None:
        """Keep the books from a call's answer: an acquiring call touches ``handle`` (its first argument
        whatever the answer, its output when ``ok``) and, when ``ok``, acquires it; a releasing call that
        is ``ok`` gives it back."""
        resource = ACQUIRES.get(function)
        if resource is not None:
            if ok or RESOURCES[resource].handle == "first_argument":
                self.touch(resource, handle, size)
            if ok:
                self.acquire(resource, handle, size=size, once=True)
        elif ok and function in RELEASES:
            self.give_back(RELEASES[function], handle)

    def leak(self, resource: str, handle: object) -> None:
        """``handle`` could not be given back: it outlives the holder (see :attr:`HandleType.leaks_if_refused`)."""
        with self._lock:
            if handle not in self._leaked[resource]:
                self._leaked[resource].append(handle)

    # ---- reading ----
    def held(self, resource: str, *, newest_first: bool | None = None) -> list[Entry]:
        """What is held of ``resource``, in the order its kind is given back in (or as ``newest_first`` says)."""
        with self._lock:
            held = list(self._held[resource])
        reverse = HANDLES[resource].newest_first if newest_first is None else newest_first
        return held[::-1] if reverse else held

    def touched(self, resource: str) -> dict[object, Entry]:
        """Every handle of ``resource`` an acquiring call named, by handle, in the order first named."""
        with self._lock:
            return dict(self._touched[resource])

    def gone(self, resource: str) -> set[object]:
        """The handles of ``resource`` the holder gave back and has not acquired since."""
        with self._lock:
            return set(self._gone[resource])

    def promise_of(self, resource: str, entry: Entry) -> str:
        """The set-up step a release of ``entry`` rests on: its own, the latest acquiring call's, or its kind's."""
        if entry.promise is not None:
            return entry.promise
        touched = self.touched(resource).get(entry.handle)
        if touched is not None and touched.promise is not None:
            return touched.promise
        return HANDLES[resource].promise

    def leaked(self, resource: str) -> list[object]:
        """The handles of ``resource`` that outlive the holder."""
        with self._lock:
            return list(self._leaked[resource])

    def kept(self, resource: str, entry: Entry) -> bool:
        """Whether ``entry`` stays held for good: a leaked handle of its kind's ``kept_under`` lies inside it."""
        under = HANDLES[resource].kept_under
        return under is not None and any(entry.holds(point) for point in self.leaked(under))

    # ---- teardown ----
    def teardown(self) -> Iterator[tuple[Step, HandleType]]:
        """The spec's teardown steps, in order, each with the declaration of the kind it releases."""
        for step in TEARDOWN:
            yield step, HANDLES[step.resource]

    def calls(self, step: Step, devices: Sequence[int] = (), entries: Sequence[Entry] | None = None) -> list[Call]:
        """The calls of one teardown step over what is held, in its kind's order (or over ``entries``,
        in the order a holder enumerates them).

        A kind given back per device (``per_device`` in the spec) is given back under each of
        ``devices`` in turn (none: under the current one); another kind's handle is given back
        under the device it was acquired on, where the entry knows it. Entries under a leaked
        handle come marked ``kept``, evaluated as the step begins.
        """
        held = self.held(step.resource) if entries is None else list(entries)
        if RESOURCES[step.resource].per_device and devices and held:
            return [Call(step, entry, device if i == 0 else None)
                    for device in devices for i, entry in enumerate(held)]
        return [Call(step, entry, entry.device if step.gives_back else None,
                     kept=step.gives_back and self.kept(step.resource, entry))
                for entry in held]

    def clear(self) -> None:
        """Forget everything (after teardown)."""
        with self._lock:
            for books in (self._held, self._touched, self._leaked, self._gone):
                for value in books.values():
                    value.clear()

