# Generates fast-path-lines.jsonl: lines in the common shape the reader's fast path takes
# ({"user":..,"ts":..,"lat":..,"lon":..[,"accuracy":..]} without whitespace), with tricky values,
# and near misses of that shape (one byte changed, inserted or removed; members reordered,
# duplicated or added; whitespace), all of which must read exactly as the full parser reads them.
# The points lie around the regions of the conformance example, so that `events` and `evaluate`
# on this file exercise the parsed values too.
#   python3 fast-path-lines.generate.py && python3 edge-lines.reference.py fast-path-lines.jsonl > fast-path-lines.expected
# fast-path-lines.rejects.jsonl is the --rejects file the reader before the fast path wrote:
#   geocampaign events --campaigns CAMPAIGNS --history fast-path-lines.jsonl --rejects fast-path-lines.rejects.jsonl
import random, datetime
random.seed(20261129)
# The instant of the line being generated: lines follow each other 20 s apart.
clock = [datetime.datetime(2026, 3, 9, 8, 0, 0)]

USERS = ['"u-%04d"' % k for k in range(1, 31)] + [
    '"u"', '"u-0001-with-a-rather-long-device-identifier-0000000000000000"', '42', '0', '7', '900000',
    '-5', '-0', '007', '1.5', '1e2', '""', '"\\u0041"', '"a\\"b"', '"\\u0000"', '"caf\\u00e9"', '"Zürich"',
    '"日本"', '"\x7f"', '"a/b"', '"a\\/b"', '"\\ud800"', 'null', 'true', '"x\ty"', '"ab"', '"abcdefg"',
    '"abcdefgh"', '"abcdefghi"', '"12345678901234567"', '12345678901234567890123']

def ts_string():
    body = clock[0].strftime('%Y-%m-%dT%H:%M:%S')
    frac = random.choice(['', '', '', '', '', '.%03d' % random.randrange(1000), '.%03d' % random.randrange(1000),
                          '.5', '.55', '.5555', '.9995', '.12345678901234567890', '.000'])
    if random.random() < 0.1: frac = random.choice(['.', '.x', '.1a'])
    off = random.choice(['Z', 'Z', 'Z', 'Z', 'Z', 'Z', '+01:00', '-08:00', '+23:59', '-00:00', 'z', '+05:30'])
    if random.random() < 0.1: off = random.choice(['+24:00', '+01:60', '', '+0100', ' Z', 'ZZ', '+01:00Z', '+01:0'])
    return '"' + body + frac + off + '"'

TS_ODD = ['"2026-03-09t21:33:16Z"', '"2026-03-09 21:33:16Z"', '"2026-03-09T23:59:60Z"', '"2026-02-29T10:00:00Z"',
          '"2024-02-29T10:00:00Z"', '"2026-02-30T10:00:00Z"', '"2026-13-01T10:00:00Z"', '"2026-00-01T10:00:00Z"',
          '"0000-01-01T00:00:00Z"', '"0001-01-01T00:00:00Z"', '"0001-01-01T00:00:00+00:01"',
          '"9999-12-31T23:59:59.999Z"', '"9999-12-31T23:59:59.9995Z"', '"9999-12-31T23:59:59-00:01"',
          '"2026-03-09T24:00:00Z"', '"2026-03-09T23:60:00Z"', '"2026-03-09T21:33:16\\u005a"', '"2026-03-09T21:33"',
          '"2026-03-09T21:33:1Z"', '"2026-03-09T21:3a:16Z"', '"2026-03-09T21;33:16Z"', '"2026-3-09T21:33:16Z"',
          '"20260309T213316Z"', '"2026-03-09T21:33:16.Z"', '"2026-03-09T21:33:16.12Z"', '"2026-03-09T21:33:16.1234+01:00"',
          '"2026-03-09T21:33:16.123-08:00"', '"2026-03-09T21:33:16+01:00"', '"2026-03-09T21:33:16+1:00"',
          '"2026-03-09T21:33:16+01:0"', '"2026-03-09T21:33:16+01-00"', '"ÿ026-03-09T21:33:16Z"', '""',
          '1773091996', '1773091996.5', '1773091996.156', '1773091996.1565', '1773091996.0004999', '-1', '0', '-0',
          '1e9', '1.773091996e9', '1.7976931348623157e308', '253402300799', '253402300800', '-62135596800',
          '-62135596801', '01773091996', '1773091996.', 'null', 'true', '{}', '[]', '"yesterday"']

def ts():
    r = random.random()
    if r < 0.7: return ts_string()
    epoch = int((clock[0] - datetime.datetime(1970, 1, 1)).total_seconds())
    if r < 0.9: return str(epoch) + random.choice(['', '', '.%03d' % random.randrange(1000), '.5', '.0'])
    return random.choice(TS_ODD)

# Region centers of the conformance example, and how far points stray from them (degrees).
CENTERS = [(37.703026, -121.759735), (37.704375, -121.748370), (37.691799, -121.730452), (37.689536, -121.757462)]

def coord(axis, lo, hi):
    c = CENTERS[hash_user[0] % len(CENTERS)][axis]
    v = c + random.uniform(-0.003, 0.003) if random.random() < 0.8 else random.uniform(lo, hi)
    return random.choice(['%.6f', '%.6f', '%.8f', '%.4f', '%.1f', '%.11f', '%.12f', '%.13f', '%.14f', '%.16f', '%.20f']) % v

NUM_ODD = ['0', '-0', '0.0', '-0.0', '00.5', '.5', '5.', '-', '+5', '1e2', '1E1', '0.1e1', '-1e-2', '37', '-121',
           '37.000000000000001', '37.00000000000001', '37.0000000000001', '37.712345678901234', '37.71234567890123',
           '37.7123456789012', '-121.712345678901', '-121.7123456789012', '90', '-90', '90.0', '90.0000000000001',
           '90.00000000000001', '180', '-180', '180.000001', '-180.0000000000000001', '1.7976931348623157e308',
           '4.9e-324', '5e-324', '1e400', '-1e400', '1e999999999999', '0.0000000000000000001', '0.000000000000001',
           '0.00000000000000001', '123456789012345', '1234567890123456789012', '"37.5"', 'null', 'true', '[]', '{}',
           '0.1', '0.5', '9.999999999999999', '8.98846567431158e307', '37.5x', '37..5', '37.5.5', '3 7', '1-2']

def lat():
    return coord(0, 37.64, 37.72) if random.random() < 0.85 else random.choice(NUM_ODD)

def lon():
    return coord(1, -121.82, -121.71) if random.random() < 0.85 else random.choice(NUM_ODD)

def accuracy():
    r = random.random()
    if r < 0.5: return str(random.randrange(1, 120))
    if r < 0.7: return '%.1f' % random.uniform(0, 120)
    return random.choice(['null', 'nul', 'nulll', 'NULL', '0', '-0', '-0.0', '-1', '0.0', '1e3', '"5"', 'true', '[]',
                          '{}', '1e400', '-1e400', '12.', '1234567890123456', '0.000000000000000000001', '5e-324'])

hash_user = [0]

def common():
    clock[0] += datetime.timedelta(seconds=20)
    k = random.randrange(6)
    hash_user[0] = k
    user = USERS[k] if random.random() < 0.8 else random.choice(USERS)
    members = [('user', user), ('ts', ts()), ('lat', lat()), ('lon', lon())]
    r = random.random()
    if r < 0.85: members.append(('accuracy', accuracy()))
    return members

def render(members, sep=',', colon=':'):
    return '{' + sep.join('"%s"%s%s' % (k, colon, v) for k, v in members) + '}'

EXTRA = ['"speed":3', '"x":{"a":[1,{"b":null}]}', '"n":null', '"s":"str"', '"e":[]', '"user2":"v"', '"accuracy ":1',
         '"\\u0075ser":"esc"', '"lat":"bad"', '"lat":95', '"lat":37.7', '"ts":"2026-03-05T10:00:00Z"', '"":1']

def variant():
    m = common()
    r = random.random()
    if r < 0.45:
        return render(m)
    if r < 0.55:
        random.shuffle(m)
        return render(m)
    if r < 0.63:
        k = random.randrange(len(m))
        dup = (m[k][0], random.choice([m[k][1], lat(), '"dup"', 'null', '1']))
        m.insert(random.randrange(len(m) + 1), dup)
        return render(m)
    if r < 0.71:
        line = render(m)
        parts = line[1:-1]
        return '{' + random.choice(EXTRA) + ',' + parts + '}' if random.random() < 0.5 else '{' + parts + ',' + random.choice(EXTRA) + '}'
    if r < 0.78:
        return random.choice([lambda: render(m, ', ', ': '), lambda: render(m, ' ,', ':'), lambda: ' ' + render(m),
                              lambda: render(m) + ' ', lambda: render(m) + '\t', lambda: '\t' + render(m),
                              lambda: render(m).replace('{', '{ ', 1), lambda: render(m)[:-1] + ' }',
                              lambda: render(m) + '\r', lambda: render(m).replace('":', '" :', 1),
                              lambda: render(m).replace(',', ',\t', 1)])()
    line = render(m)
    # One byte changed, inserted or removed.
    pos = random.randrange(len(line))
    alphabet = '{}[]",:\\ 0123456789.-+eEnulltrfasZT\x01\x7fé'
    c = random.choice(alphabet)
    op = random.randrange(3)
    if op == 0: return line[:pos] + c + line[pos + 1:]
    if op == 1: return line[:pos] + c + line[pos:]
    return line[:pos] + line[pos + 1:]

lines = [render(common()) for _ in range(600)] + [variant() for _ in range(3400)]
lines += ['{}', '{"user":"u-0001"}', '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,}',
          '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7}}',
          '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7',
          '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,"accuracy":5}x',
          '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,"accuracy":null}',
          '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,"accuracy":nul}',
          '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,"accuracy":5,"accuracy":null}',
          '{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,"accuracy":null,"accuracy":-1}',
          '{"user":0,"ts":0,"lat":0,"lon":0,"accuracy":0}', '{"user":1,"ts":1,"lat":1,"lon":1}',
          '{"a":1}', '{"user":"u","ts":"2026-03-09T21:33:16Z","lat":1,"lon":1}']
with open('fast-path-lines.jsonl', 'wb') as f:
    for l in lines:
        f.write(l.encode('utf-8') + b'\n')
    # Invalid UTF-8 inside and outside strings, in otherwise common lines.
    for bad in [b'\xff', b'\xc3', b'\xed\xa0\x80', b'\xc0\xaf', b'\xf4\x90\x80\x80', b'\xe2\x82']:
        f.write(b'{"user":"u-' + bad + b'","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,"accuracy":5}\n')
        f.write(b'{"user":"u-0001","ts":"2026-03-09T21:33:16Z","lat":37.7,"lon":-121.7,"accuracy":5}' + bad + b'\n')
        f.write(b'{"user":"u-0001","ts":"2026-03-09T21:33:16Z' + bad + b'","lat":37.7,"lon":-121.7}\n')
