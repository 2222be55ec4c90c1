#!/usr/bin/env python3
"""Generate examples/visits.jsonl, the example location history for the campaigns in campaigns/.

Deterministic: the same seed always writes the same bytes.

    python3 scripts/make_example_history.py                  # writes examples/visits.jsonl
    python3 scripts/make_example_history.py --out - --seed 7 # another variant, to stdout

Three days, Monday 2026-11-16 to Wednesday 2026-11-18, in Livermore, California. Pacific Standard
Time holds all three days (UTC-8; daylight saving time ended on 2026-11-01), so 12:15 local is
20:15Z, and an evening in Livermore is the next morning in UTC.

Eight made-up people, each phone reporting every 10-30 s while moving and every 20-60 s while
still, with 5-15 m of GPS jitter, accuracy 5-40 m and about 1 fix in 70 a 150 m outlier (too
inaccurate to be used). Between trips a phone is silent (the person is at home or at the office,
away from every region), which the engine sees as a gap. All lines are well formed.

Decisions the example is designed to produce (`geocampaign evaluate --include-suppressed`), with
the default seed; local = America/Los_Angeles, and Z = UTC:

  user   campaign / rule / offer                               trigger (local)     status
  -----  ----------------------------------------------------  ------------------  ---------
  carla  car-shoppers / three-dealers / test-drive             Tue 11:06 (19:06Z)  delivered
         (Arroyo Auto Sales Mon 09:57 for 17 min, Granada Car Center Mon 15:30 for 14 min,
         Las Positas Imports Tue 11:01 for 19 min: the trigger is 5 minutes into the third)
  zoe    car-shoppers / three-dealers / test-drive             Wed 09:30 (17:30Z)  held_out
         (Vasco Road Autos Mon 12:27, Springtown Trucks Tue 15:58, Del Valle Cars Wed 09:25:
         zoe falls in the campaign's 10% holdout, the control group)
  lena   competitor-lunch / lunch-at-competitor / lunch-coupon Tue 12:12 (20:12Z)  delivered
         (23 minutes at Burger Barn from 12:02, in the wing beside its courtyard hole)
  lena   competitor-lunch / lunch-at-competitor / lunch-coupon Wed 12:23 (20:23Z)  capped
         (26 minutes at Noodle Bar from 12:13; the coupon is capped at 1 per 7d)
  dina   lorrenzillos / thanks / thank-you                     Mon 19:20 (Tue 03:20Z)  delivered
  dina   lorrenzillos / regular / loyalty                      Wed 19:03 (Thu 03:03Z)  delivered
  dina   lorrenzillos / thanks / thank-you                     Wed 19:13 (Thu 03:13Z)  delivered
         (two dinners of 48 minutes, Monday from 18:50 and Wednesday from 18:43)
  leo    lorrenzillos / thanks / thank-you                     Tue 19:37 (Wed 03:37Z)  held_out
         (a 53 minute dinner from 19:07; leo is in the lorrenzillos 10% holdout)

And, on purpose, no decision for:
  bob    two dealers only (Patterson Pass Motors Mon 13:04 for 14 min, Portola Motors Wed 09:55
         for 12 min) after driving along Auto Row past three others: "2 of 3 distinct car-dealer
         regions within 72h"
  omar   Taco Town Mon 18:31 for 42 minutes (dinner, not lunch); Pizza Co. Tue from 13:58 for
         21 minutes (more than 10 minutes in only from 14:08, after the 11:30-14:00 window)
  pat    a passer-by who commutes through town twice a day on First St, straight through
         Lorrenzillo's circle (four visits of under a minute: no 30 minute dwell), past Pizza Co.
         and Del Valle Cars, waiting at a red light outside every region

Every person's fixes stay at least 40 m (more than hysteresis plus jitter) inside a region
where they stop, and on the roads at least 40 m outside the regions they pass (pat's road
excepted), so these outcomes do not hinge on the last meter; another --seed moves the times by a
few minutes and gives the same decisions.

Region coordinates below mirror campaigns/*.yaml and campaigns/regions/car-dealers.geojson.
"""

import argparse
import datetime
import math
import os
import random
import sys
import zoneinfo

R = 6371008.8                      # semantics.md 1: Earth radius, meters
ORIGIN = (37.703026, -121.759735)  # Lorrenzillo's; local x east / y north in meters from here
M_PER_DEG = R * math.pi / 180.0
COS0 = math.cos(math.radians(ORIGIN[0]))
LA = zoneinfo.ZoneInfo("America/Los_Angeles")


def to_xy(lat, lon):
    return ((lon - ORIGIN[1]) * M_PER_DEG * COS0, (lat - ORIGIN[0]) * M_PER_DEG)


def to_ll(x, y):
    return (ORIGIN[0] + y / M_PER_DEG, ORIGIN[1] + x / (M_PER_DEG * COS0))


# Where people stay: points well inside each region (more than hysteresis + jitter from every edge).
STAY = {
    "lorrenzillos": to_xy(37.703300, -121.760100),         # 300 m circle; ~45 m from the center
    "burger-barn": to_xy(37.698980, -121.768200),          # west wing, ~70 m from the courtyard hole
    "pizza-co": to_xy(37.700420, -121.749500),             # the small polygon's middle
    "taco-town": to_xy(37.707000, -121.744850),            # 150 m circle
    "noodle-bar": to_xy(37.708060, -121.765880),           # 110 m circle
    "arroyo-auto": to_xy(37.693850, -121.768828),          # dealers: 120 m circles
    "portola-motors": to_xy(37.694250, -121.764282),
    "granada-cars": to_xy(37.693830, -121.759735),
    "vasco-autos": to_xy(37.694250, -121.755188),
    "springtown-trucks": to_xy(37.693830, -121.750642),
    "las-positas-imports": to_xy(37.695000, -121.745300),
    "del-valle-cars": to_xy(37.699878, -121.741900),
    "patterson-pass-motors": to_xy(37.708700, -121.752347),
}

# Imaginary roads (y or x in meters), all more than 40 m from every region they pass.
AUTO_ROW = -1240.0      # east-west, south of the dealers
FIRST_ST = -150.0       # east-west, straight through Lorrenzillo's circle (the passer-by's road)
NORTH_RD = 385.0        # east-west, between Lorrenzillo's and Noodle Bar, x in [-1000, 1000]
WEST_AVE = -1000.0      # north-south
EAST_AVE = 1060.0       # north-south


class Phone:
    """One user's phone: moves along polylines and stays put, recording noisy fixes."""

    def __init__(self, user, rng, move_every=(10.0, 30.0), still_every=(20.0, 60.0), outliers=1.0 / 70.0):
        self.user = user
        self.rng = rng
        self.move_every = move_every      # seconds between fixes while moving (min, max)
        self.still_every = still_every    # ... and while staying put
        self.outliers = outliers          # share of fixes that are 150 m-accuracy outliers
        self.t = 0.0
        self.x = 0.0
        self.y = 0.0
        self.lines = []

    def start(self, day, hhmm, x, y):
        """Start a trip at local time `hhmm` on 2026-11-`day` at (x, y), give or take 3 minutes."""
        h, m = map(int, hhmm.split(":"))
        local = datetime.datetime(2026, 11, day, h, m, tzinfo=LA)
        self.t = local.timestamp() + self.rng.uniform(-180.0, 180.0)
        self.x, self.y = x, y
        self.fix()

    def fix(self):
        rng = self.rng
        if rng.random() < self.outliers:
            r, acc = rng.uniform(100.0, 220.0), 150
        else:
            r = rng.uniform(5.0, 15.0)
            acc = max(5, min(40, int(round(r * rng.uniform(1.2, 2.6)))))
        a = rng.uniform(0.0, 2.0 * math.pi)
        lat, lon = to_ll(self.x + r * math.cos(a), self.y + r * math.sin(a))
        ts = datetime.datetime.fromtimestamp(int(self.t), datetime.timezone.utc)
        self.lines.append((int(self.t), self.user, ts.strftime("%Y-%m-%dT%H:%M:%SZ"), lat, lon, acc))

    def move(self, points, speed):
        """Travel through `points` at about `speed` m/s, one fix every `move_every` seconds."""
        rng = self.rng
        for (px, py) in points:
            while True:
                dx, dy = px - self.x, py - self.y
                dist = math.hypot(dx, dy)
                dt = rng.uniform(*self.move_every)
                step = speed * rng.uniform(0.8, 1.2) * dt
                if step >= dist:
                    self.t += dt * dist / step
                    self.x, self.y = px, py
                    break
                self.t += dt
                self.x += dx * step / dist
                self.y += dy * step / dist
                self.fix()
        self.fix()

    def stay(self, minutes):
        """Stay put for `minutes`, one fix every `still_every` seconds."""
        end = self.t + minutes * 60.0
        while True:
            self.t += self.rng.uniform(*self.still_every)
            if self.t > end:
                break
            self.fix()
        self.t = end
        self.fix()

    def drive(self, points):
        self.move(points, 13.0)

    def park(self, place, minutes):
        """Roll slowly into `place`, stay `minutes`, and roll back out to where we came in from."""
        gate = (self.x, self.y)
        self.move([STAY[place]], 3.0)
        self.stay(minutes)
        self.move([gate], 3.0)


def carla(p):
    home = (-2600.0, -1600.0)
    p.start(16, "09:55", *home)
    p.drive([(-2600, AUTO_ROW), (-800, AUTO_ROW)])
    p.park("arroyo-auto", 15)
    p.drive([(-2600, AUTO_ROW), home])
    p.start(16, "15:28", *home)
    p.drive([(-2600, AUTO_ROW), (0, AUTO_ROW)])
    p.park("granada-cars", 12)
    p.drive([(-2600, AUTO_ROW), home])
    p.start(17, "10:55", *home)
    p.drive([(-2600, AUTO_ROW), (EAST_AVE, AUTO_ROW), (EAST_AVE, -900)])
    p.park("las-positas-imports", 18)
    p.drive([(EAST_AVE, AUTO_ROW), (-2600, AUTO_ROW), home])


def zoe(p):
    home = (2600.0, -1800.0)
    p.start(16, "12:25", *home)
    p.drive([(2600, AUTO_ROW), (400, AUTO_ROW)])
    p.park("vasco-autos", 14)
    p.drive([(2600, AUTO_ROW), home])
    p.start(17, "15:55", *home)
    p.drive([(2600, AUTO_ROW), (800, AUTO_ROW)])
    p.park("springtown-trucks", 10)
    p.drive([(2600, AUTO_ROW), home])
    p.start(18, "09:22", *home)
    p.drive([(2600, AUTO_ROW), (2600, -350), (1800, -350)])
    p.park("del-valle-cars", 20)
    p.drive([(2600, -350), (2600, AUTO_ROW), home])


def bob(p):
    home = (1500.0, 2500.0)
    p.start(16, "13:03", *home)
    p.drive([(1500, 900), (650, 900)])
    p.park("patterson-pass-motors", 12)
    p.drive([(1500, 900), home])
    p.start(18, "09:45", *home)
    p.drive([(1500, 900), (EAST_AVE, 900), (EAST_AVE, AUTO_ROW), (-400, AUTO_ROW)])  # past Vasco Road Autos
    p.park("portola-motors", 10)
    p.drive([(EAST_AVE, AUTO_ROW), (EAST_AVE, 900), (1500, 900), home])


def lena(p):
    office = (-2200.0, -450.0)
    p.start(17, "11:58", *office)
    p.drive([(WEST_AVE, -450)])
    p.park("burger-barn", 22)
    p.drive([office])
    p.start(18, "12:08", *office)
    p.drive([(WEST_AVE, -450), (WEST_AVE, NORTH_RD), (-540, NORTH_RD)])
    p.park("noodle-bar", 25)
    p.drive([(WEST_AVE, NORTH_RD), (WEST_AVE, -450), office])


def omar(p):
    home = (-300.0, 2200.0)
    p.start(16, "18:25", *home)
    p.drive([(-300, 900), (1300, 900), (1300, 650)])
    p.park("taco-town", 40)
    p.drive([(1300, 900), (-300, 900), home])
    p.start(17, "13:50", *home)
    p.drive([(-300, 900), (EAST_AVE, 900), (EAST_AVE, -290)])
    p.park("pizza-co", 20)
    p.drive([(EAST_AVE, 900), (-300, 900), home])


def dina(p):
    home = (-2400.0, 1200.0)
    for day, at in ((16, "18:48"), (18, "18:38")):
        p.start(day, at, *home)
        p.drive([(-2400, NORTH_RD), (-80, NORTH_RD)])
        p.park("lorrenzillos", 45)
        p.drive([(-2400, NORTH_RD), home])


def leo(p):
    home = (600.0, 2400.0)
    p.start(17, "19:02", *home)
    p.drive([(600, 900), (-80, 900), (-80, NORTH_RD)])
    p.park("lorrenzillos", 50)
    p.drive([(-80, 900), (600, 900), home])


def pat(p):
    home, work = (-3200.0, FIRST_ST), (3800.0, FIRST_ST)
    for day in (16, 17, 18):
        p.start(day, "08:05", *home)
        p.drive([(WEST_AVE - 20, FIRST_ST)])
        p.stay(1.3)                                  # a red light, outside every region
        p.drive([work])
        p.start(day, "17:20", *work)
        p.drive([(WEST_AVE + 20, FIRST_ST)])
        p.stay(1.0)
        p.drive([home])


USERS = [carla, zoe, bob, lena, omar, dina, leo, pat]


def generate(seed):
    lines = []
    for i, make in enumerate(USERS):
        phone = Phone(make.__name__, random.Random(seed * 1000 + i))
        make(phone)
        lines.extend(phone.lines)
    lines.sort(key=lambda r: (r[0], r[1]))
    out = []
    for (_, user, ts, lat, lon, acc) in lines:
        out.append('{"user": "%s", "ts": "%s", "lat": %.6f, "lon": %.6f, "accuracy": %d}\n'
                   % (user, ts, lat, lon, acc))
    return "".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    ap.add_argument("--out", default=os.path.join(here, "..", "examples", "visits.jsonl"),
                    help="output file, or - for stdout (default examples/visits.jsonl)")
    args = ap.parse_args()
    text = generate(args.seed)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote %d lines to %s" % (text.count("\n"), os.path.normpath(args.out)), file=sys.stderr)


if __name__ == "__main__":
    main()
