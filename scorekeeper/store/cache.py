"""A bounded, thread-safe cache that drops the least recently used entry first.

The app keeps three kinds of things it can always make again: replayed
games (:mod:`scorekeeper.store.game_store`), rendered pieces of pages
(:mod:`scorekeeper.web.server.fragments`) and rendered PDFs (:mod:`scorekeeper.web.sheets.pdf`).
Each is an :class:`LRUCache` under a key that names exactly what it holds.

>>> cache: LRUCache[str, int] = LRUCache(2)
>>> cache.put("a", 1); cache.put("b", 2); cache.get("a")
1
>>> cache.put("c", 3)  # "b" was used least recently: it goes
>>> cache.get("b"), cache.get_or_make("b", lambda: 20), len(cache)
(None, 20, 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRUCache(Generic[K, V]):
    """At most ``size`` entries; a hit makes its entry the most recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
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

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value for ``key``, made (outside the lock) and kept on a miss.

        Two threads missing the same key at once both make it; the values are equal.
        """
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)
