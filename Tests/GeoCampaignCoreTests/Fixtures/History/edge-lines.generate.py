# Generates fuzz2.jsonl (200,000 lines); edge-lines.jsonl holds its first 1,000 lines plus the
# first 400 accepted ones after them.
import random, json
random.seed(7)
def rnum():
    c = random.randrange(12)
    if c == 0: return random.choice(['0', '-0', '1e400', '-1e400', '1E2', '1e-400', '5e-324', '0.0', '-0.0', '1.5e1', '90', '-90', '180', '-180', '90.0000000000000001', '180.00000000000001', '-180.0000000001', '12345678901234567890', '1.', '.5', '01', '+1', '1e', 'NaN', 'Infinity', '-'])
    if c == 1: return str(random.randrange(-200, 200))
    if c == 2: return repr(random.uniform(-200, 200))
    if c == 3: return f'{random.uniform(-100,100):.{random.randrange(0,25)}f}'
    if c == 4: return f'{random.uniform(-100,100):.{random.randrange(1,20)}e}'
    return f'{random.uniform(-90,90):.8f}'
def rts():
    c = random.randrange(10)
    if c < 3:
        y = random.choice([1, 2, 1969, 1970, 2000, 2024, 2026, 9999, 0, 10000])
        mo = random.choice([1, 2, 12, 13, 0]); d = random.choice([1, 28, 29, 30, 31, 32])
        h = random.choice([0, 23, 24]); mi = random.choice([0, 59, 60]); s = random.choice([0, 59, 60])
        frac = random.choice(['', '.', '.5', '.0005', '.9995', '.1234', '.12345678901234567890', '.0004999'])
        off = random.choice(['Z', 'z', '+00:00', '-00:00', '+05:30', '-08:00', '+24:00', '+01:60', '', '+0100', ' Z'])
        sep = random.choice(['T', 't', 'T', ' '])
        return json.dumps(f'{y:04d}-{mo:02d}-{d:02d}{sep}{h:02d}:{mi:02d}:{s:02d}{frac}{off}')
    if c < 6:
        base = random.choice(['0', '1772471066', '-62135596800', '253402300799', '-1'])
        frac = random.choice(['', '.0', '.0005', '.9995', '.4999', '.5', '.00049999999999', '.999', '.9999'])
        exp = random.choice(['', '', 'e0', 'e-3', 'e3', 'E+2', 'e-400', 'e400'])
        return base + frac + exp
    return random.choice(['null', 'true', '{}', '[]', '"yesterday"', '"\\u0032026-03-02T17:14:18Z"', '"2026-03-02T17:14:18\\u005a"', rnum()])
def ruser():
    return random.choice(['"u-1"', '""', '"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '"caf\\u00e9"', '"Zürich"', '12', '-0', '1.0', '1e3', 'null', 'true', '["a"]', '"a\\"b"', '"\\u0000"', '12345678901234567890123'])
def rval():
    return random.choice([rnum(), ruser(), '{"a": [1, {"b": null}]}', '[[[]]]', '"x"', 'null'])
lines = []
for i in range(200000):
    fields = []
    for k in ['user', 'ts', 'lat', 'lon', 'accuracy', 'speed', 'u\\u0073er', 'lat']:
        if random.random() < 0.85 if k in ('user', 'ts', 'lat', 'lon') else random.random() < 0.3:
            v = {'user': ruser, 'ts': rts, 'lat': rnum, 'lon': rnum}.get(k, rval)()
            fields.append(f'"{k}": {v}')
    random.shuffle(fields)
    line = '{' + random.choice([', ', ',', ' , ']).join(fields) + '}'
    r = random.random()
    if r < 0.03: line = line[:random.randrange(len(line))]
    elif r < 0.05: line = line + random.choice([',', ' x', '}', ' ', '\t', '\r'])
    elif r < 0.06: line = random.choice(['', ' ', '\t \t', 'null', '[1]', '"s"', '  {} '])
    lines.append(line)
open('fuzz2.jsonl', 'w', encoding='utf-8').write('\n'.join(lines) + '\n')
