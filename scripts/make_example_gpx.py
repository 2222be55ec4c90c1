#!/usr/bin/env python3
"""Write the example GPX files of examples/ (deterministic).

    python3 scripts/make_example_gpx.py            # writes examples/America.gpx and
                                                   # examples/lorrenzillos-dinner.gpx

examples/America.gpx
    Three waypoints without times, the kind of file a developer drags into Xcode to simulate a
    location. formats.md 2.2 plays them one second apart from --start (default
    2000-01-01T00:00:00Z). They lie on the street about 610-690 m east of Lorrenzillo's center,
    outside its 300 m circle and outside every example region, so `simulate` shows no event.

examples/lorrenzillos-dinner.gpx
    One phone, a fix every 5-10 s with 5-15 m of GPS jitter, on Thursday 2026-11-19 (Pacific
    Standard Time, UTC-8): it drives in along North Rd from the north-west from 18:27 local
    (02:27Z), rolls into Lorrenzillo's parking lot, stays 45 minutes about 45 m from the
    center, rolls out and drives away east. With the example campaigns,
    `geocampaign simulate --gpx examples/lorrenzillos-dinner.gpx` shows (default seed):
        02:31:37Z  enter lorrenzillos / lorrenzillos                (18:31 local)
        03:01:37Z  lorrenzillos / thanks / thank-you: delivered     (30 minutes into the visit)
        03:19:24Z  exit lorrenzillos / lorrenzillos, left, 47 min 47 s
    The user is the file name, `lorrenzillos-dinner`, which is not in the campaign's holdout.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_example_history import NORTH_RD, Phone  # noqa: E402

AMERICA = [(37.702801, -121.751862), (37.702821, -121.752321), (37.702840, -121.752780)]


def america_gpx():
    out = ['<?xml version="1.0"?>\n',
           '<gpx version="1.1" creator="Xcode">\n',
           '    <!--\n',
           '     Waypoints near Lorrenzillo\'s, Livermore CA. Xcode simulates a route visiting each\n',
           '     waypoint; without <time> elements geocampaign plays them one second apart.\n',
           '     -->\n']
    for i, (lat, lon) in enumerate(AMERICA, 1):
        out.append('    <wpt lat="%.6f" lon="%.6f">\n        <name>America %d</name>\n    </wpt>\n'
                   % (lat, lon, i))
    out.append('</gpx>\n')
    return "".join(out)


def dinner_gpx(seed):
    p = Phone("lorrenzillos-dinner", random.Random(seed), move_every=(5.0, 10.0),
              still_every=(5.0, 10.0), outliers=0.0)
    p.start(19, "18:30", -1800.0, 1000.0)
    p.drive([(-1800.0, NORTH_RD), (-80.0, NORTH_RD)])
    p.park("lorrenzillos", 45)
    p.drive([(1000.0, NORTH_RD), (1000.0, 1200.0)])
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           '<gpx version="1.1" creator="geocampaign scripts/make_example_gpx.py"'
           ' xmlns="http://www.topografix.com/GPX/1/1">\n',
           '  <metadata>\n',
           "    <name>Dinner at Lorrenzillo's</name>\n",
           "    <desc>Drives in, stays 45 minutes, drives away (Livermore CA, 2026-11-19 PST)</desc>\n",
           '  </metadata>\n',
           '  <trk>\n',
           "    <name>Dinner at Lorrenzillo's</name>\n",
           '    <trkseg>\n']
    for (_, _, ts, lat, lon, _) in p.lines:
        out.append('      <trkpt lat="%.6f" lon="%.6f"><time>%s</time></trkpt>\n' % (lat, lon, ts))
    out.append('    </trkseg>\n  </trk>\n</gpx>\n')
    return "".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    ap.add_argument("--out", default=os.path.join(here, "..", "examples"),
                    help="output folder (default examples/)")
    args = ap.parse_args()
    for name, text in (("America.gpx", america_gpx()), ("lorrenzillos-dinner.gpx", dinner_gpx(args.seed))):
        path = os.path.join(args.out, name)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote %s (%d points)" % (os.path.normpath(path), text.count("<trkpt") + text.count("<wpt")),
              file=sys.stderr)


if __name__ == "__main__":
    main()
