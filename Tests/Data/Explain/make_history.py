"""Writes history.jsonl for the explain end-to-end tests: mia, Fri 2012-12-14 (CET = UTC+1).
Café 09:00-09:30 CET, bakery 10:00-10:10, café again 12:00-12:24; a fix every 30 s, between
the visits on a street outside both regions. Run: python3 make_history.py > history.jsonl"""
from datetime import datetime, timedelta, timezone
cafe, bakery, street = (47.3779, 8.5403), (47.3667, 8.5450), (47.3720, 8.5300)
visits = [("08:00", "08:30", cafe), ("09:00", "09:10", bakery), ("11:00", "11:24", cafe)]
day = datetime(2012, 12, 14, tzinfo=timezone.utc)
def at(hm):
    h, m = map(int, hm.split(":"))
    return day + timedelta(hours=h, minutes=m)
t, end = at("07:50"), at("11:24")
while t <= end:
    where = street
    for a, b, p in visits:
        if at(a) <= t <= at(b):
            where = p
    print('{"user":"mia","ts":"%s","lat":%.6f,"lon":%.6f,"accuracy":10}' % (t.strftime("%Y-%m-%dT%H:%M:%SZ"), where[0], where[1]))
    t += timedelta(seconds=30)
