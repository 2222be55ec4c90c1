# Independent implementation of formats.md 2.1 used to write edge-lines.expected:
#   python3 edge-lines.reference.py edge-lines.jsonl > edge-lines.expected
# Prints per line: blank, a reject reason, or ok USER-HEX TIME-MS LAT-BITS LON-BITS ACCURACY-BITS|nan.
import json, re, sys, math, datetime, struct
def bits(f): return struct.unpack('<Q', struct.pack('<d', f))[0]
RFC = re.compile(r'^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$')
MINMS, MAXMS = -62135596800000, 253402300799999
from decimal import Decimal, ROUND_HALF_UP
def rfc(s):
    m = RFC.match(s)
    if not m: return None
    y, mo, d, h, mi, se = map(int, m.group(1,2,3,4,5,6))
    if y < 1: return None
    try: dt = datetime.datetime(y, mo, d, h, mi, se)
    except ValueError: return None
    frac = m.group(7) or ''
    fms = int(Decimal('0.' + (frac or '0')).scaleb(3).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    off = 0
    if m.group(9):
        oh, om = int(m.group(10)), int(m.group(11))
        if oh > 23 or om > 59: return None
        off = (oh * 60 + om) * (1 if m.group(9) == '+' else -1)
    days = (dt.date() - datetime.date(1970,1,1)).days
    ms = ((days * 86400 + h*3600 + mi*60 + se) - off*60) * 1000 + fms
    return ms if MINMS <= ms <= MAXMS else None
import decimal
decimal.getcontext().prec = 2000
decimal.getcontext().Emax = 10**9
decimal.getcontext().Emin = -10**9
def num_ms(text):
    v = Decimal(text).scaleb(3)
    if v.copy_abs() > Decimal(10) ** 19: return None
    r = int(v.copy_abs().quantize(Decimal(1), rounding=ROUND_HALF_UP)) * (-1 if v < 0 else 1)
    return r if MINMS <= r <= MAXMS else None
class Num:
    def __init__(s, t): s.t = t
def bad_const(x): raise ValueError(x)
def classify(line):
    if all(c in b' \t' for c in line): return ('blank',)
    if len(line) > 1 << 20: return ('too_long',)
    try: s = line.decode('utf-8')
    except UnicodeDecodeError: return ('bad_encoding',)
    try: obj = json.loads(s, parse_constant=bad_const, parse_float=Num, parse_int=Num)
    except (ValueError, RecursionError): return ('invalid_json',)
    if not isinstance(obj, dict): return ('not_object',)
    u = obj.get('user', None) if 'user' in obj else KeyError
    if u is KeyError: return ('missing_field',)
    if isinstance(u, str):
        try: u.encode('utf-8')
        except UnicodeEncodeError: return ('bad_encoding',)
        if u == '': return ('missing_field',)
        user = u
    elif isinstance(u, Num) and re.fullmatch(r'-?(0|[1-9]\d*)', u.t): user = u.t
    else: return ('bad_type',)
    if 'ts' not in obj: return ('missing_field',)
    t = obj['ts']
    if isinstance(t, str):
        try: t.encode('utf-8')
        except UnicodeEncodeError: return ('bad_timestamp',)
        ms = rfc(t)
        if ms is None: return ('bad_timestamp',)
    elif isinstance(t, Num):
        ms = num_ms(t.t)
        if ms is None: return ('bad_timestamp',)
    else: return ('bad_type',)
    co = []
    for k, lim in (('lat', 90), ('lon', 180)):
        if k not in obj: return ('missing_field',)
        v = obj[k]
        if not isinstance(v, Num): return ('bad_type',)
        f = float(v.t)
        if not (math.isfinite(f) and -lim <= f <= lim): return ('out_of_range',)
        co.append(f)
    a = obj.get('accuracy')
    if a is None: acc = None
    elif isinstance(a, Num):
        acc = float(a.t)
        if not acc >= 0: return ('out_of_range',)
    else: return ('bad_type',)
    return ('ok', user.encode('utf-8').hex(), ms, bits(co[0]), bits(co[1]), bits(acc) if acc is not None else 'nan')
data = open(sys.argv[1], 'rb').read()
lines = data.split(b'\n')
if lines and lines[-1] == b'': lines.pop()
for i, l in enumerate(lines):
    if l.endswith(b'\r'): l = l[:-1]
    if i == 0 and l.startswith(b'\xef\xbb\xbf'): l = l[3:]
    print(' '.join(map(str, classify(l))))
