#!/usr/bin/env bash
# PostgreSQL's own counters over 30 s of 5,000 single POSTs/s after a 40 s warm-up.
cd /work/main
source bench/lib.sh
export POSTLOAD=$PWD/bench/postload/postload
probe() {
  snap() {
    /usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$IOT_POSTGRES_PORT" -U postgres -d iot -At -F' ' -c "
      SELECT 'db', xact_commit, tup_inserted, tup_updated, tup_fetched, blks_read, blks_hit FROM pg_stat_database WHERE datname='iot'
      UNION ALL SELECT 'wal', wal_records, wal_fpi, wal_bytes, 0,0,0 FROM pg_stat_wal
      UNION ALL SELECT 'tbl:'||relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, seq_scan, idx_scan, autovacuum_count+autoanalyze_count FROM pg_stat_user_tables WHERE n_tup_ins+n_tup_upd > 0
      UNION ALL SELECT 'bgw', buffers_clean, maxwritten_clean, buffers_alloc,0,0,0 FROM pg_stat_bgwriter
      UNION ALL SELECT 'io:'||replace(backend_type,' ','_')||':'||object||':'||context, coalesce(writes,0), coalesce(extends,0), coalesce(fsyncs,0), coalesce(reads,0),0,0 FROM pg_stat_io WHERE coalesce(writes,0)+coalesce(extends,0)+coalesce(fsyncs,0) > 0
      ORDER BY 1"
  }
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate 5000 -batch 1 -devices 1000 -conns 256 -duration 40s -report /tmp/pgprobe-warm.json >/dev/null 2>&1
  snap > /tmp/pgprobe.before
  /usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$IOT_POSTGRES_PORT" -U postgres -d iot -At -c "SHOW shared_buffers; SHOW max_wal_size; SHOW wal_buffers; SHOW checkpoint_timeout" > /tmp/pgprobe.settings
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate 5000 -batch 1 -devices 1000 -conns 256 -duration 30s -report /tmp/pgprobe.json >/dev/null 2>&1
  sleep 2
  snap > /tmp/pgprobe.after
}
export -f probe
bench_stack /tmp/pgprobe-stack.log probe
join <(sort /tmp/pgprobe.before) <(sort /tmp/pgprobe.after) | awk '{printf "%-50s", $1; for (i = 2; i <= 7; i++) printf " %12d", $(i+6) - $i; print ""}'
cat /tmp/pgprobe.settings
