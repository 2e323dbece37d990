"""A bounded, thread-safe cache that drops the least recently used entry first.

The app keeps three kinds of things it can always make again: replayed
games (:mod:`scorekeeper.store.game_store`), rendered pieces of pages
(:mod:`scorekeeper.web.server.fragments`) and rendered PDFs (:mod:`scorekeeper.web.paper.pdf`).
Each is an :class:`LRUCache` under a key that names exactly what it holds.
Requests that miss one key at once share one making (:meth:`LRUCache.get_or_make`):
a PDF that ten phones ask for as it changes is rendered once, not ten times.

>>> cache: LRUCache[str, int] = LRUCache(2)
>>> cache.put("a", 1); cache.put("b", 2); cache.get("a")
1
>>> cache.put("c", 3)  # "b" was used least recently: it goes
>>> cache.get("b"), cache.get_or_make("b", lambda: 20), len(cache)
(None, 20, 2)
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Making(Generic[V]):
    """One value on its way: its waiters wake when ``done`` is set."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.made = False
        self.value: V | None = None


class LRUCache(Generic[K, V]):
    """At most ``size`` entries; a hit makes its entry the most recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[K, _Making[V]] = {}
        self.hits = self.misses = 0

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_make(
        self,
        key: K,
        make: Callable[[], V],
        waiting: Callable[[], AbstractContextManager[object]] = contextlib.nullcontext,
    ) -> V:
        """The value for ``key``, made (outside the lock) and kept on a miss.

        Requests that miss the same key at once share one making: the first makes it,
        the others wait for its value (inside ``waiting()``: a web request gives its
        work slot back meanwhile). If the making fails, its error is its own caller's
        (a refusal may concern that caller alone): a waiter then makes it itself.
        """
        while True:
            with self._lock:
                value = self._items.get(key)
                if value is not None:
                    self._items.move_to_end(key)
                    self.hits += 1
                    return value
                making = self._making.get(key)
                if making is None:
                    making = self._making[key] = _Making[V]()
                    self.misses += 1
                    break
            with waiting():
                making.done.wait()
            if making.made and making.value is not None:
                return making.value
        try:
            value = make()
            self.put(key, value)
            making.value, making.made = value, True
            return value
        finally:
            with self._lock:
                del self._making[key]
            making.done.set()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)
