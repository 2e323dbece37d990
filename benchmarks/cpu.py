"""Where the machine's CPU went during a load run: the servers, the load generator, the rest.

Latency on a shared 2-core machine depends on whatever else runs; the CPU each
part used does not (much). Read from ``/proc`` (Linux), in seconds of CPU.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def tree_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid``'s living tree; waited-for children
    count in their parent's ``cutime``/``cstime``."""
    total = 0
    for member in process_tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])
    return total / TICK


def machine_busy_seconds() -> float:
    """CPU seconds every core spent busy since boot (all but idle and I/O wait)."""
    values = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICK


@dataclass
class CpuMeter:
    """Start it, run the load, stop it: the CPU of the servers, this process and the rest."""

    servers: list[int]
    start_servers: float = 0.0
    start_self: float = 0.0
    start_machine: float = 0.0

    def start(self) -> None:
        self.start_servers = sum(map(tree_seconds, self.servers))
        self.start_self = _own_seconds()
        self.start_machine = machine_busy_seconds()

    def stop(self) -> dict[str, float]:
        servers = sum(map(tree_seconds, self.servers)) - self.start_servers
        generator = _own_seconds() - self.start_self
        machine = machine_busy_seconds() - self.start_machine
        return {"servers": servers, "generator": generator, "rest": machine - servers - generator}


def _own_seconds() -> float:
    times = os.times()
    return times.user + times.system
