"""Rewrites a pbn-gen file into the forms other programs write (a date with
a time, `24.08.2013`, unquoted values, Deals without `<first>:`, `-` voids,
a seat before every hand, passed-out boards without a Contract, stray text
between tags, long notes and comment lines, `P` and `1N`, rotated Deals,
empty Play tags), one form per game in turn, to count what `pbn fmt`
leaves:

    pbn-gen --games 320 --seed 7 --clean | python3 tests/bench/wild_forms.py > wild.pbn
    pbn fmt - < wild.pbn | pbn check --export --statistics --no-group -
"""
import re, sys
src = sys.stdin.read().replace("\r\n", "\n")
head, *games = re.split(r'\n\n(?=\[)', src)
SEATS = 'NESW'
LONG = ('keycard ask; replies: 5C 0 or 3 keycards, 5D 1 or 4, 5H 2 without the '
        'queen, 5S 2 with the queen, 5NT 2 plus a void, 6C 1 plus a void, and '
        'after any reply 5NT asks for specific kings, 6 of a suit shows that '
        'king, 6NT denies any, with a further ask for the trump queen when it '
        'is still unknown to the asker')
def deal_parts(g):
    m = re.search(r'\[Deal "(\w):([^"]*)"\]', g)
    return m, m.group(1), m.group(2).split()
def rotate_to_n(first, hands):
    i = SEATS.index(first)
    by_seat = {SEATS[(i + k) % 4]: h for k, h in enumerate(hands)}
    return [by_seat[s] for s in SEATS]
forms = []
def form(f): forms.append(f); return f
@form
def date_dmy_name(g): return re.sub(r'\[Date "(\d+)\.(\d+)\.(\d+)"\]', lambda m: f'[Date "{int(m[3])}-{["Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec"][int(m[2])-1]}-{m[1]}"]', g)
@form
def date_time(g): return re.sub(r'\[Date "(\d+)\.(\d+)\.(\d+)"\]', r'[Date "\1-\2-\3 18:36"]', g)
@form
def date_dotted(g): return re.sub(r'\[Date "(\d+)\.(\d+)\.(\d+)"\]', r'[Date "24.\2.\1"]', g)
@form
def date_us(g): return re.sub(r'\[Date "(\d+)\.(\d+)\.(\d+)"\]', r'[Date "\2/24/\1"]', g)
@form
def unquoted(g): return re.sub(r'\[Event "[^"]*"\]', '[Event Random Deal #]', g)
@form
def two_spaces(g): return g.replace('[Date "', '[Date  "')
@form
def no_first(g):
    m, first, hands = deal_parts(g)
    return g.replace(m.group(0), '[Deal "' + ' '.join(rotate_to_n(first, hands)) + '"]')
@form
def dash_void(g):
    m, first, hands = deal_parts(g)
    hands = ['.'.join(s or '-' for s in h.split('.')) for h in hands]
    return g.replace(m.group(0), f'[Deal "{first}:' + ' '.join(hands) + '"]')
@form
def seat_prefixed(g):
    m, first, hands = deal_parts(g)
    i = SEATS.index(first)
    return g.replace(m.group(0), '[Deal "' + ' '.join(f'{SEATS[(i+k)%4]}:{h}' for k, h in enumerate(hands)) + '"]')
@form
def passed_out(g):
    g = re.sub(r'\[(Declarer|Contract|Result|Score)[^\]]*\]\n', '', g)
    g = re.sub(r'\[Auction "(\w)"\]\n(.|\n)*', r'[Auction "\1"]\nPass Pass Pass Pass\n', g)
    return g
@form
def stray_text(g): return g.replace('[Board ', 'Generated 16 hands\n[Board ', 1)
@form
def long_note(g):
    if '[Note "1:' not in g: return g
    return re.sub(r'\[Note "1:[^"]*"\]', f'[Note "1:{LONG}"]', g)
@form
def long_comment(g): return g.replace('[Board ', '{' + LONG + ' ' + LONG + '}\n[Board ', 1)
@form
def short_calls(g):
    def calls(m): return m.group(0).replace('Pass', 'P').replace('NT', 'N')
    return re.sub(r'\[Auction "\w"\]\n[^\[]*', calls, g)
@form
def rotated(g):
    m, first, hands = deal_parts(g)
    hands = hands[1:] + hands[:1]
    return g.replace(m.group(0), f'[Deal "{first}:' + ' '.join(hands) + '"]')
@form
def empty_play(g):
    # A board not played: no auction, no result, an empty Play tag.
    g = re.sub(r'\[(Declarer|Contract|Result|Score)[^\]]*\]\n', '', g)
    return re.sub(r'\[Auction "(\w)"\]\n(.|\n)*', '[Play ""]\n', g)
out = [head]
for i, g in enumerate(games):
    out.append(forms[i % len(forms)](g))
sys.stdout.write("\n\n".join(out).replace("\n", "\r\n"))
sys.stderr.write(f'{len(games)} games, {len(forms)} forms\n')
