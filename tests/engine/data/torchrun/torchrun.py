#!/usr/bin/python3
"""torchrun of Debian's python3-torch (1.13) on Python 3.11, unchanged but for
one function: its argument parser's Std.from_str iterates an IntFlag, which
Python 3.11 no longer allows for a combined value, so the stock `torchrun`
exits in argument parsing. Only the tests use this; the arguments are
torchrun's own (spelt with underscores in 1.13: --nproc_per_node)."""
import re
import sys

from torch.distributed.elastic.multiprocessing import api


def from_str(vm):
    """Std.from_str with Std(int(v)) instead of iterating the flag: "0".."3", or "rank:value,..."."""
    if re.match(api._VALUE_REGEX, vm):
        return api.Std(int(vm))
    if re.match(api._MAPPING_REGEX, vm):
        return {int(i): api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    raise ValueError(f"{vm} does not match: <{api._VALUE_REGEX}> or <{api._MAPPING_REGEX}>")


api.Std.from_str = staticmethod(from_str)

from torch.distributed.run import main  # noqa: E402  (after the fix)

if __name__ == "__main__":
    sys.exit(main())
