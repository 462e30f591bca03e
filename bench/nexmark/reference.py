#!/usr/bin/env python3
# reference.py — an independent computation of the Nexmark queries' final results from the events
# themselves, to check weir's answers (bench/nexmark/verify drives it).
#
# Usage: reference.py EVENTS.out RESULT.out QUERY...
#   EVENTS.out: weir's batch tableau output of SELECT * FROM person / auction / bid (in that order)
#   RESULT.out: weir's output for the queries; each query's statement is preceded by a "-- qN"
#               comment; streaming changelogs are applied (+I/+U add a row, -U/-D remove one)
# Covers q0-q5, q7-q11, q13, q15-q22 (q6 does not run in Flink, q12 uses processing time, q14 needs
# a Java UDF; q13's side input is the one bench/nexmark/lib.sh writes: the lines "i,i", i < 10,000). Semantics as Flink's: AVG on BIGINT truncates, session windows merge
# when a gap is exactly the session gap, windows are aligned to the epoch.
import sys, re, collections, datetime
from decimal import Decimal
def tables(path):
    out=[]; cur=None
    for line in open(path, errors='replace'):
        if line.startswith('Flink SQL> SELECT'): cur=None
        if not line.startswith('|'): continue
        cells=[c.strip() for c in line.rstrip('\n').strip('|').split('|')]
        if cur is None: cur={'h':cells,'rows':[]}; out.append(cur); continue
        cur['rows'].append(cells)
    return out
P,A,B=tables(sys.argv[1])[-3:]
def ts(s): return datetime.datetime.strptime(s, '%Y-%m-%d %H:%M:%S.%f')
def fmt(t): return t.strftime('%Y-%m-%d %H:%M:%S.') + '%03d' % (t.microsecond//1000)
def ms(t): return int((t - datetime.datetime(1970,1,1)).total_seconds()*1000 + 0.5)
def fromms(m): return datetime.datetime(1970,1,1) + datetime.timedelta(milliseconds=m)
persons=[dict(id=int(r[0]),name=r[1],email=r[2],cc=r[3],city=r[4],state=r[5],dt=ms(ts(r[6])),extra=r[7]) for r in P['rows']]
auctions=[dict(id=int(r[0]),item=r[1],desc=r[2],initial=int(r[3]),reserve=int(r[4]),dt=ms(ts(r[5])),expires=ms(ts(r[6])),seller=int(r[7]),category=int(r[8]),extra=r[9]) for r in A['rows']]
bids=[dict(auction=int(r[0]),bidder=int(r[1]),price=int(r[2]),channel=r[3],url=r[4],dt=ms(ts(r[5])),extra=r[6]) for r in B['rows']]
T=lambda m: fmt(fromms(m))
res={}
res['q0']=[(b['auction'],b['bidder'],b['price'],T(b['dt']),b['extra']) for b in bids]
res['q1']=[(b['auction'],b['bidder'],'%.3f'%(Decimal(b['price'])*Decimal('0.908')),T(b['dt']),b['extra']) for b in bids]
res['q2']=[(b['auction'],b['price']) for b in bids if b['auction']%123==0]
pid={p['id']:p for p in persons}
res['q3']=[(pp['name'],pp['city'],pp['state'],a['id']) for a in auctions for pp in persons if a['seller']==pp['id'] and a['category']==10 and pp['state'] in ('OR','ID','CA')]
bids_by_auction=collections.defaultdict(list)
for b in bids: bids_by_auction[b['auction']].append(b)
mx={}
for a in auctions:
    ps=[b['price'] for b in bids_by_auction[a['id']] if a['dt']<=b['dt']<=a['expires']]
    if ps: mx[(a['id'],a['category'])]=max(ps)
cat=collections.defaultdict(list)
for (i,c),m in mx.items(): cat[c].append(m)
def javadiv(a,b): q=abs(a)//abs(b); return q if (a>=0)==(b>0) else -q
res['q4']=[(c, javadiv(sum(v),len(v))) for c,v in cat.items()]
# q5: HOP slide 2s size 10s
cnt=collections.Counter()
for b in bids:
    last=b['dt']-b['dt']%2000
    for s in range(last, b['dt']-10000, -2000): cnt[(b['auction'],s)]+=1
maxn=collections.defaultdict(int)
for (a,s),n in cnt.items(): maxn[s]=max(maxn[s],n)
res['q5']=[(a,n) for (a,s),n in cnt.items() if n>=maxn[s]]
# q7: tumble 10s max price; join bids price=max and dt between end-10s and end
wmax={}
for b in bids:
    s=b['dt']-b['dt']%10000; wmax[s]=max(wmax.get(s,-1),b['price'])
res['q7']=[(b['auction'],b['price'],b['bidder'],T(b['dt']),b['extra']) for s,m in wmax.items() for b in bids if b['price']==m and s+10000-10000<=b['dt']<=s+10000]
# q8
pw=set((p['id'],p['name'],p['dt']-p['dt']%10000) for p in persons)
aw=set((a['seller'],a['dt']-a['dt']%10000) for a in auctions)
res['q8']=[(i,n,T(s)) for (i,n,s) in pw if (i,s) in aw]
# q9: winning bid per auction (price desc, dt asc)
q9=[]; ties9=0
for a in auctions:
    bs=[b for b in bids_by_auction[a['id']] if a['dt']<=b['dt']<=a['expires']]
    if not bs: continue
    bs.sort(key=lambda b:(-b['price'],b['dt']))
    if len(bs)>1 and (bs[0]['price'],bs[0]['dt'])==(bs[1]['price'],bs[1]['dt']): ties9+=1
    w=bs[0]
    q9.append((a['id'],a['item'],a['desc'],a['initial'],a['reserve'],T(a['dt']),T(a['expires']),a['seller'],a['category'],a['extra'],w['auction'],w['bidder'],w['price'],T(w['dt']),w['extra']))
res['q9']=q9
res['q10']=[(b['auction'],b['bidder'],b['price'],T(b['dt']),b['extra'],fromms(b['dt']).strftime('%Y-%m-%d'),fromms(b['dt']).strftime('%H:%M')) for b in bids]
# q11: sessions gap 10s per bidder
q11=[]
byb=collections.defaultdict(list)
for b in bids: byb[b['bidder']].append(b['dt'])
for k,v in byb.items():
    v.sort(); st=v[0]; last=v[0]; n=1
    for t in v[1:]:
        if t <= last+10000: n+=1; last=t
        else: q11.append((k,n,T(st),T(last+10000))); st=last=t; n=1
    q11.append((k,n,T(st),T(last+10000)))
res['q11']=q11
def day(m): return fromms(m).strftime('%Y-%m-%d')
def rk(p): return 1 if p<10000 else (2 if p<1000000 else 3)
def stats(bs):
    r=[len(bs)]+[sum(1 for b in bs if rk(b['price'])==i) for i in (1,2,3)]
    r+=[len(set(b['bidder'] for b in bs))]+[len(set(b['bidder'] for b in bs if rk(b['price'])==i)) for i in (1,2,3)]
    r+=[len(set(b['auction'] for b in bs))]+[len(set(b['auction'] for b in bs if rk(b['price'])==i)) for i in (1,2,3)]
    return r
g=collections.defaultdict(list)
for b in bids: g[day(b['dt'])].append(b)
res['q15']=[tuple([d]+stats(v)) for d,v in g.items()]
g=collections.defaultdict(list)
for b in bids: g[(b['channel'],day(b['dt']))].append(b)
res['q16']=[tuple([c,d,max(fromms(b['dt']).strftime('%H:%M') for b in v)]+stats(v)) for (c,d),v in g.items()]
g=collections.defaultdict(list)
for b in bids: g[(b['auction'],day(b['dt']))].append(b)
res['q17']=[tuple([a,d,len(v)]+[sum(1 for b in v if rk(b['price'])==i) for i in (1,2,3)]+[min(b['price'] for b in v),max(b['price'] for b in v),javadiv(sum(b['price'] for b in v),len(v)),sum(b['price'] for b in v)]) for (a,d),v in g.items()]
last={}
for b in bids:
    k=(b['bidder'],b['auction'])
    if k not in last or b['dt']>=last[k]['dt']: last[k]=b
res['q18']=[(b['auction'],b['bidder'],b['price'],b['channel'],b['url'],T(b['dt']),b['extra']) for b in last.values()]
q19=[]; ties19=0
for a,bs in bids_by_auction.items():
    s=sorted(bs,key=lambda b:-b['price'])
    if len(s)>10 and s[9]['price']==s[10]['price']: ties19+=1
    for i,b in enumerate(s[:10]): q19.append((b['auction'],b['bidder'],b['price'],b['channel'],b['url'],T(b['dt']),b['extra'],i+1))
res['q19']=q19
aid={a['id']:a for a in auctions}
res['q20']=[(b['auction'],b['bidder'],b['price'],b['channel'],b['url'],T(b['dt']),b['extra'],a['item'],a['desc'],a['initial'],a['reserve'],T(a['dt']),T(a['expires']),a['seller'],a['category'],a['extra']) for b in bids for a in [aid.get(b['auction'])] if a and a['category']==10]
res['q13']=[(b['auction'],b['bidder'],b['price'],T(b['dt']),str(b['auction']%10000)) for b in bids]
def chid(u):
    m=re.search(r'(&|^)channel_id=([^&]*)',u); return m.group(2) if m else None
q21=[]
for b in bids:
    l=b['channel'].lower(); e=chid(b['url'])
    if e is None and l not in ('apple','google','facebook','baidu'): continue
    cid={'apple':'0','google':'1','facebook':'2','baidu':'3'}.get(l, e)
    q21.append((b['auction'],b['bidder'],b['price'],b['channel'],cid if cid is not None else '<NULL>'))
res['q21']=q21
def si(u,i):
    p=u.split('/'); return p[i] if i<len(p) else '<NULL>'
res['q22']=[(b['auction'],b['bidder'],b['price'],b['channel'],si(b['url'],3),si(b['url'],4),si(b['url'],5)) for b in bids]
if ties9 or ties19:
    print('note: ties in q9 (%d auctions) or q19 (%d): ROW_NUMBER may pick either row' % (ties9, ties19))
# Streams folded by key instead of by row: Flink 2.1+ (and weir with it) declares a ROW_NUMBER
# Top-1 without its rank column insert-only and sends a key's new first row as +U without a -U
# (docs/user-guide.md, Top-N), so q9's +U replaces the row of its auction (the first column).
UPSERT_KEY_COLUMNS={'q9': 1}
def final_rows(lines, key_columns=0):
    header=None; rows=[]
    for line in lines:
        if not line.startswith('|'): continue
        cells=[c.strip() for c in line.rstrip('\n').strip('|').split('|')]
        if header is None: header=cells; continue
        rows.append(cells)
    c=collections.Counter()
    if header and header[0]=='op' and key_columns:
        by_key={}
        for r in rows:
            v=tuple(r[1:]); k=v[:key_columns]
            if r[0] in ('+I','+U'): by_key[k]=v
            else: by_key.pop(k, None)
        c.update(by_key.values())
    elif header and header[0]=='op':
        for r in rows:
            v=tuple(r[1:])
            if r[0] in ('+I','+U'): c[v]+=1
            else:
                c[v]-=1
                if c[v]==0: del c[v]
    else:
        for r in rows: c[tuple(r)]+=1
    return c
want_qs=set(sys.argv[3:])
status=0
# a query's statements, from its "-- qN" comment to the next query's (q13 creates its side input
# table first)
groups=[]
for sec in open(sys.argv[2], errors='replace').read().split('\nFlink SQL> '):
    m=re.search(r'^(?:> )?-- (q\d+)$', sec, re.M)
    if m: groups.append([m.group(1), sec])
    elif groups: groups[-1][1]+='\n'+sec
for q, sec in groups:
    if q not in want_qs: continue
    if '[ERROR]' in sec:
        print(q, 'FAILED:', sec[sec.index('[ERROR]'):].split('\n')[1][:150]); status=1; continue
    got=final_rows(sec.split('\n'), UPSERT_KEY_COLUMNS.get(q, 0))
    want=collections.Counter(tuple(str(x) for x in r) for r in res[q])
    if got==want: print('%-4s ok: %d rows equal the reference' % (q, sum(want.values())))
    else:
        status=1
        print('%-4s DIFFERENT: weir %d rows, reference %d' % (q, sum(got.values()), sum(want.values())))
        for k in list(got-want)[:3]: print('   only weir:', k[:8])
        for k in list(want-got)[:3]: print('   only reference:', k[:8])
sys.exit(status)
