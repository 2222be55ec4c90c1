#!/usr/bin/env python3
"""Write a JSON Lines history (formats.md 2.1) as the same history in CSV (docs/history-format.md):
a header `user,ts,lat,lon,accuracy`, then one row per line, every value as its JSON text (strings
unquoted from JSON, quoted for CSV only when they need it; null or absent accuracy an empty cell).

    python3 scripts/jsonl_to_csv.py bench-data/M/history.jsonl bench-data/M/history.csv

For `make bench` data (every line valid) the CSV gives the same fixes, decisions and events; a
line that is not a JSON object is written as an empty-user row (missing_field).
"""
import json
import re
import sys

NUMBER = re.compile(r'"(user|ts|lat|lon|accuracy)"\s*:\s*(-?[0-9][0-9.eE+-]*)')


def cell(s):
    if any(c in s for c in ',"\r\n') or s != s.strip(" \t"):
        return '"' + s.replace('"', '""') + '"'
    return s


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: jsonl_to_csv.py IN.jsonl OUT.csv")
    with open(sys.argv[1], "rb") as f, open(sys.argv[2], "w", encoding="utf-8", newline="", buffering=1 << 22) as out:
        out.write("user,ts,lat,lon,accuracy\n")
        for raw in f:
            line = raw.decode("utf-8").rstrip("\r\n")
            if not line.strip(" \t"):
                out.write("\n")
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                obj = None
            if not isinstance(obj, dict):
                out.write(",,,,\n")
                continue
            literal = dict(NUMBER.findall(line))   # numbers as written, not as Python prints them
            cells = []
            for key in ("user", "ts", "lat", "lon", "accuracy"):
                v = obj.get(key)
                if v is None:
                    cells.append("")
                elif isinstance(v, str):
                    cells.append(cell(v))
                else:
                    cells.append(literal.get(key, json.dumps(v)))
            out.write(",".join(cells) + "\n")


if __name__ == "__main__":
    main()
