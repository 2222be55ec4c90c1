#!/usr/bin/env python3
"""Regroup a JSON Lines history so that each user's lines are together (as a partitioned export
writes them), users in order of first appearance, each user's lines in file order. Used by
`make bench` to feed `evaluate --sorted`.

Usage: group_by_user.py IN.jsonl OUT.jsonl
Lines whose user cannot be found (malformed lines) are kept together at the end.
"""
import re, sys

USER = re.compile(rb'"user"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)')


def main(src, dst):
    groups = {}
    for line in open(src, "rb"):
        m = USER.search(line)
        key = m.group(1) if m else None
        if key is not None and key.startswith(b'"') and key[1:-1].lstrip(b"-").isdigit():
            key = key[1:-1]  # 17 and "17" are the same user
        groups.setdefault(key, []).append(line)
    with open(dst, "wb") as out:
        for key, lines in groups.items():
            if key is not None:
                out.writelines(lines)
        out.writelines(groups.get(None, []))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
