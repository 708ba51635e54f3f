import json, uuid, random, sys, datetime
variant = sys.argv[1]; batches=int(sys.argv[2]); size=int(sys.argv[3]); start_ms=int(sys.argv[4])
COLS="id, received_at, uplink_id, measured_at, decoded_at, schema_version, channel, device_type, device_id, measurements, attributes, measured_ns, received_ns, decoded_ns, uplink_digest"
RECORD="id uuid, received_at timestamptz, uplink_id uuid, measured_at timestamptz, decoded_at timestamptz, schema_version smallint, channel text, device_type text, device_id text, measurements jsonb, attributes jsonb, measured_ns smallint, received_ns smallint, decoded_ns smallint, uplink_digest bigint"
probe = """LEFT JOIN LATERAL (SELECT 1 AS found FROM data_units d WHERE d.id = r.id
 AND d.received_at BETWEEN r.received_at - CAST('1 day' AS interval) AND r.received_at + CAST('1 day' AS interval) LIMIT 1) stored ON true
 WHERE stored.found IS NULL"""
def v7(ms):
    r = random.getrandbits(74)
    hi = (ms << 16) | (0x7 << 12) | (r >> 62)
    lo = (0b10 << 62) | (r & ((1<<62)-1))
    return str(uuid.UUID(int=(hi<<64)|lo))
def ts(ms, us):
    d = datetime.datetime.fromtimestamp(ms/1000, datetime.timezone.utc)
    return d.strftime('%Y-%m-%dT%H:%M:%S.') + '%06d' % (us) + 'Z'
n=0
out=sys.stdout
if variant.startswith("copytemp"):
    out.write("CREATE TEMP TABLE incoming (LIKE data_units) ON COMMIT DELETE ROWS;\n")
for b in range(batches):
    rows=[]
    for i in range(size):
        ms = start_ms + n//5; us=(ms%1000)*1000 + n%1000
        rows.append({"id":v7(ms),"received_at":ts(ms,us),"uplink_id":v7(ms),"measured_at":ts(ms,us),"decoded_at":ts(ms,us),
          "schema_version":1,"channel":"demo","device_type":"em300th","device_id":"dev-%d"%(n%1000),
          "measurements":{"temperature":27.1+(n%7),"humidity":55.5,"battery":92.0},"received_ns":123,"uplink_digest":random.getrandbits(62)})
        n+=1
    out.write("BEGIN; SET LOCAL enable_seqscan = off;\n")
    cols=[c.strip() for c in COLS.split(',')]
    def copyrows():
        for r in rows:
            vals=[]
            for c in cols:
                v=r.get(c)
                if v is None: vals.append('\\N')
                elif isinstance(v,dict): vals.append(json.dumps(v).replace('\\','\\\\'))
                else: vals.append(str(v))
            out.write('\t'.join(vals)+'\n')
        out.write('\\.\n')
    if variant=="jsonb":
        lit = json.dumps(rows).replace("'","''")
        out.write(f"""WITH parsed AS MATERIALIZED (SELECT {COLS} FROM jsonb_to_recordset(CAST('{lit}' AS jsonb)) AS r({RECORD})),
ins AS (INSERT INTO data_units ({COLS}) SELECT {COLS} FROM parsed r {probe} ON CONFLICT (id, received_at) DO NOTHING RETURNING id, received_at)
SELECT count(*) FROM ins;\n""")
    elif variant.startswith("copytemp"):
        out.write(f"COPY incoming ({COLS}) FROM STDIN;\n"); copyrows()
        out.write(f"""WITH ins AS (INSERT INTO data_units ({COLS}) SELECT {COLS} FROM incoming r {probe} ON CONFLICT (id, received_at) DO NOTHING RETURNING id, received_at) SELECT count(*) FROM ins;\n""")
    elif variant=="probecopy":
        ids=",".join(r["id"] for r in rows)
        lo=min(r["received_at"] for r in rows); hi=max(r["received_at"] for r in rows)
        out.write(f"SELECT id, uplink_digest FROM data_units WHERE id = ANY(CAST('{{{ids}}}' AS uuid[])) AND received_at BETWEEN CAST('{lo}' AS timestamptz) - interval '1 day' AND CAST('{hi}' AS timestamptz) + interval '1 day';\n")
        out.write(f"COPY data_units ({COLS}) FROM STDIN;\n"); copyrows()
    elif variant=="copytempnoprobe":
        out.write(f"COPY incoming ({COLS}) FROM STDIN;\n"); copyrows()
        out.write(f"""WITH ins AS (INSERT INTO data_units ({COLS}) SELECT {COLS} FROM incoming r ON CONFLICT (id, received_at) DO NOTHING RETURNING id, received_at) SELECT count(*) FROM ins;\n""")
    elif variant=="copydirect":
        out.write(f"COPY data_units ({COLS}) FROM STDIN;\n"); copyrows()
    elif variant=="unnest":
        def arr(c, typ):
            vals=[]
            for r in rows:
                v=r.get(c)
                if v is None: vals.append('NULL')
                elif isinstance(v,dict): vals.append('"'+json.dumps(v).replace('\\','\\\\').replace('"','\\"')+'"')
                else: vals.append('"'+str(v)+'"')
            return "CAST('{"+",".join(vals).replace("'","''")+"}' AS "+typ+"[])"
        types=[t.strip().split(' ',1) for t in RECORD.split(',')]
        arrays=", ".join(arr(c,t) for c,t in types)
        out.write(f"""WITH ins AS (INSERT INTO data_units ({COLS}) SELECT {COLS} FROM unnest({arrays}) AS r({COLS}) {probe} ON CONFLICT (id, received_at) DO NOTHING RETURNING id, received_at) SELECT count(*) FROM ins;\n""")
    out.write("COMMIT;\n")
