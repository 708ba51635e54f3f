// Command postload posts EM300-TH uplinks to ingest open-loop at a fixed request rate for a fixed time, one
// uplink or a batch per request, and reports what was accepted, the errors, the latency and its own CPU time.
// With -closed it runs seed 003 suite 1's closed loop instead, as k6/run suite1-closed-loop does: one goroutine per
// device, all starting together, each posting one uplink, waiting for the answer and sleeping -interval,
// -iterations times, each POST timed from its connection in hand as k6 times it; the same shape at a third of k6's
// CPU per POST, to tell the stack's share of a wave from k6's. With -waves as well, every device posts at each tick
// -interval apart, so that each wave is released together as the first one is: many first waves in one run.
// On a 2-core box k6 would take too much of the CPU the stack needs at thousands of requests per second; a
// goroutine per connection, pre-built bodies and net/http's keep-alive pool cost about 60-100 µs of CPU per
// request (measured against a stub server).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type config struct {
	url, key, channel, report string
	rate                      float64
	batch, devices, conns     int
	duration, timeout         time.Duration
	preconnect                bool
	closed                    bool
	waves                     bool
	iterations                int
	interval                  time.Duration
	prefix, samples           string
}

type report struct {
	URL                  string           `json:"url"`
	Channel              string           `json:"channel"`
	RatePerSecond        float64          `json:"ratePerSecond"`
	Batch                int              `json:"batch"`
	Devices              int              `json:"devices"`
	Conns                int              `json:"conns"`
	Preconnected         int              `json:"preconnected"`
	DurationSeconds      float64          `json:"durationSeconds"`
	Scheduled            int64            `json:"scheduled"`
	Sent                 int64            `json:"sent"`
	NotSentInTime        int64            `json:"notSentInTime"`
	NotSentBySecond      map[string]int64 `json:"notSentBySecond,omitempty"`
	TransportErrors      int64            `json:"transportErrors"`
	StatusCounts         map[string]int64 `json:"statusCounts"`
	Non202               int64            `json:"non202"`
	Errors               int64            `json:"errors"`
	UplinksAccepted      int64            `json:"uplinksAccepted"`
	RequestsPerSecond    float64          `json:"achievedRequestsPerSecond"`
	AcceptedPerSecond    float64          `json:"acceptedUplinksPerSecond"`
	LatencyP50Ms         float64          `json:"latencyP50Ms"`
	LatencyP95Ms         float64          `json:"latencyP95Ms"`
	LatencyP99Ms         float64          `json:"latencyP99Ms"`
	LatencyMaxMs         float64          `json:"latencyMaxMs"`
	CPUUserSeconds       float64          `json:"cpuUserSeconds"`
	CPUSystemSeconds     float64          `json:"cpuSystemSeconds"`
	CPUSeconds           float64          `json:"cpuSeconds"`
	WallSeconds          float64          `json:"wallSeconds"`
	Cores                int              `json:"cores"`
	CPUShare             float64          `json:"cpuShare"`
	TransportErrorSample []string         `json:"transportErrorSample,omitempty"`
}

// worker holds one connection's (or, closed, one device's) results; each is written by its own goroutine only and
// merged at the end.
type worker struct {
	sample bool
	// With -closed, latencies run from the connection in hand, as k6's http_req_duration does (it leaves out
	// http_req_blocked and http_req_connecting): ctx carries the trace that sets gotConn.
	ctx       context.Context
	gotConn   time.Time
	latencies []float32
	answered  []int64 // with -samples: when each latency's response was read, ms since the epoch
	status    map[int]int64
	errors    int64
	samples   []string
}

func main() {
	var c config
	flag.StringVar(&c.url, "url", "http://127.0.0.1:8080", "ingest base URL")
	flag.StringVar(&c.key, "key", "demo-device-key", "device key (Authorization: Bearer KEY)")
	flag.StringVar(&c.channel, "channel", "demo", "channel to post to")
	flag.StringVar(&c.report, "report", "", "write the JSON report here as well as to stdout")
	flag.Float64Var(&c.rate, "rate", 1000, "requests per second")
	flag.IntVar(&c.batch, "batch", 1, "uplinks per request (1: one JSON object, more: a JSON array)")
	flag.IntVar(&c.devices, "devices", 100, "device ids em300-1 .. em300-N, taken in turn")
	flag.IntVar(&c.conns, "conns", 256, "most requests in flight (and keep-alive connections); a request due while all are busy is not sent")
	flag.DurationVar(&c.duration, "duration", time.Minute, "how long to send")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Second, "a request without a response by then is a transport error")
	flag.BoolVar(&c.preconnect, "preconnect", true, "open every connection before the clock starts, as devices that hold theirs have")
	flag.BoolVar(&c.closed, "closed", false, "closed loop: each of -devices posts, waits for the answer and sleeps -interval, -iterations times (-rate, -duration and -conns unused); latency from the connection in hand, as k6's http_req_duration")
	flag.IntVar(&c.iterations, "iterations", 60, "with -closed: uplinks per device")
	flag.DurationVar(&c.interval, "interval", time.Second, "with -closed: sleep after each answer")
	flag.BoolVar(&c.waves, "waves", false, "with -closed: post on ticks -interval apart, every device at each tick (each wave released together, as the first is) instead of sleeping -interval after each answer; an answer later than the next tick posts at once")
	flag.StringVar(&c.prefix, "device-prefix", "em300-", "device ids are this prefix and 1 .. -devices")
	flag.StringVar(&c.samples, "samples", "", "write every answered request here: ms since the epoch when its answer was read, its latency in ms")
	flag.Parse()
	if c.closed {
		c.conns, c.batch = c.devices, 1
		c.rate, c.duration = float64(c.devices)/c.interval.Seconds(), time.Duration(c.iterations)*c.interval
	}
	if c.rate <= 0 || c.batch < 1 || c.devices < 1 || c.conns < 1 || c.duration <= 0 || c.iterations < 1 {
		log.Fatal("-rate, -batch, -devices, -conns, -duration, -iterations and -interval must be positive")
	}
	target, err := url.Parse(fmt.Sprintf("%s/sensor-data/%s/encoded/em300th", strings.TrimRight(c.url, "/"), c.channel))
	if err != nil {
		log.Fatal(err)
	}
	bodies := buildBodies(c)
	client := &http.Client{Timeout: c.timeout, Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        c.conns,
		MaxIdleConnsPerHost: c.conns,
		MaxConnsPerHost:     c.conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}}
	header := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + c.key}}

	preconnected := 0
	if c.preconnect {
		preconnected = preconnect(client, target, c.conns)
	}

	cpuBefore, wallBefore := cpuTimes(), time.Now()
	workers := make([]*worker, c.conns)
	for i := range workers {
		w := &worker{status: map[int]int64{}, sample: c.samples != ""}
		if c.closed {
			w.ctx = httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
				GotConn: func(httptrace.GotConnInfo) { w.gotConn = time.Now() }})
		}
		workers[i] = w
	}
	var scheduled, missed int64
	var missedBySecond map[string]int64
	if c.closed {
		scheduled = closedLoop(c, workers, client, target, header)
	} else {
		scheduled, missed, missedBySecond = openLoop(c, workers, client, target, header, bodies)
	}
	wall := time.Since(wallBefore).Seconds()
	cpuAfter := cpuTimes()

	r := summarise(c, workers, scheduled, missed)
	r.NotSentBySecond = missedBySecond
	r.Preconnected = preconnected
	r.CPUUserSeconds = round3(cpuAfter[0] - cpuBefore[0])
	r.CPUSystemSeconds = round3(cpuAfter[1] - cpuBefore[1])
	r.CPUSeconds = round3(r.CPUUserSeconds + r.CPUSystemSeconds)
	r.WallSeconds = round3(wall)
	r.Cores = runtime.NumCPU()
	r.CPUShare = round3(r.CPUSeconds / (wall * float64(r.Cores)))
	out, _ := json.MarshalIndent(r, "", "  ")
	fmt.Println(string(out))
	if c.samples != "" {
		writeSamples(c.samples, workers)
	}
	if c.report != "" {
		if err := os.WriteFile(c.report, append(out, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// openLoop hands request n to the first idle connection's worker at n/rate (schedule) and answers how many were
// due, how many were not sent in time and those by second.
func openLoop(c config, workers []*worker, client *http.Client, target *url.URL, header http.Header,
	bodies [][]byte) (int64, int64, map[string]int64) {
	// A token per connection: taken when a request is handed out, given back once its response is read.
	idle := make(chan struct{}, c.conns)
	work := make(chan int64, c.conns)
	var wg sync.WaitGroup
	for _, w := range workers {
		idle <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range work {
				w.post(client, target, header, bodies[n%int64(len(bodies))])
				idle <- struct{}{}
			}
		}()
	}
	scheduled, missed, missedBySecond := schedule(c, idle, work)
	close(work)
	wg.Wait()
	return scheduled, missed, missedBySecond
}

// closedLoop runs one goroutine per device, released together as k6 starts its VUs: post, read the answer, sleep,
// -iterations times. It answers how many requests it made.
func closedLoop(c config, workers []*worker, client *http.Client, target *url.URL, header http.Header) int64 {
	start := make(chan struct{})
	var wg sync.WaitGroup
	var released time.Time
	for d, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := 0; i < c.iterations; i++ {
				// k6's temperatureOf: 20.0 .. 24.9 °C, stepping with the iteration and the device.
				body := fmt.Sprintf(`{"deviceId":"%s%d","payloadHex":"%s"}`, c.prefix, d+1, em300thHex(90, 200+(i*7+d+1)%50, 50))
				w.post(client, target, header, []byte(body))
				if i < c.iterations-1 {
					if c.waves {
						time.Sleep(time.Until(released.Add(time.Duration(i+1) * c.interval)))
					} else {
						time.Sleep(c.interval)
					}
				}
			}
		}()
	}
	released = time.Now()
	close(start)
	wg.Wait()
	return int64(len(workers) * c.iterations)
}

// em300thHex is a Milesight EM300-TH uplink: battery %, temperature in 0.1 °C, humidity in 0.5 %.
func em300thHex(battery, decidegrees, halfPercents int) string {
	return fmt.Sprintf("0175%02x0367%02x%02x0468%02x", battery, decidegrees&0xff, (decidegrees>>8)&0xff, halfPercents)
}

// writeSamples writes every answered request, in the order each worker saw them: answer time (ms since the epoch)
// and latency (ms).
func writeSamples(path string, workers []*worker) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	out := bufio.NewWriter(f)
	for _, w := range workers {
		for i, at := range w.answered {
			fmt.Fprintf(out, "%d %.3f\n", at, w.latencies[i])
		}
	}
	if err := out.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// preconnect opens the pool's connections before the measured run, with GETs of the POST route (answered with a
// problem, no uplink made): a new process has none, and dialing them while the stack is loaded turns a short stall
// into a longer one (each late request opens a connection). Rounds of conns concurrent requests until that many
// connections were opened, or five rounds; it answers how many were.
func preconnect(client *http.Client, target *url.URL, conns int) int {
	var opened sync.Map
	for round := 0; round < 5; round++ {
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < conns; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
					opened.Store(info.Conn.LocalAddr().String(), true)
				}}
				req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace),
					http.MethodGet, target.String(), nil)
				<-start
				if resp, err := client.Do(req); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}()
		}
		close(start)
		wg.Wait()
		if n := count(&opened); n >= conns {
			return n
		}
	}
	return count(&opened)
}

func count(m *sync.Map) int {
	n := 0
	m.Range(func(_, _ any) bool { n++; return true })
	return n
}

// buildBodies makes every request body up front: one per device for single uplinks, and as many arrays for
// batches, each starting at the next device, so that the device ids vary and nothing is encoded per request.
func buildBodies(c config) [][]byte {
	item := func(n int) string {
		return fmt.Sprintf(`{"deviceId":"%s%d","payloadHex":"01755C03673401046865","fPort":85}`, c.prefix, n%c.devices+1)
	}
	bodies := make([][]byte, c.devices)
	for d := range bodies {
		if c.batch == 1 {
			bodies[d] = []byte(item(d))
			continue
		}
		items := make([]string, c.batch)
		for i := range items {
			items[i] = item(d + i)
		}
		bodies[d] = []byte("[" + strings.Join(items, ",") + "]")
	}
	return bodies
}

// schedule hands request n to a worker at start + n/rate when a connection is free (an idle token); when every
// connection is busy the request is counted as not sent in time instead of queueing, so a slow service cannot
// lower the offered rate (open loop). After a late wake-up the overdue requests go at once. Misses are also counted
// by the wall-clock second (Unix time) they were due in, to line a stall up with the stack's collector and vmstat.
func schedule(c config, idle <-chan struct{}, work chan<- int64) (scheduled, missed int64, bySecond map[string]int64) {
	bySecond = map[string]int64{}
	total := int64(c.rate * c.duration.Seconds())
	interval := float64(time.Second) / c.rate
	start := time.Now()
	nextLog := start.Add(10 * time.Second)
	for n := int64(0); n < total; n++ {
		due := start.Add(time.Duration(float64(n) * interval))
		if wait := time.Until(due); wait > 0 {
			time.Sleep(wait)
		}
		select {
		case <-idle:
			work <- n
		default:
			missed++
			bySecond[strconv.FormatInt(due.Unix(), 10)]++
		}
		scheduled++
		if now := time.Now(); now.After(nextLog) {
			log.Printf("%.0f s: %d scheduled, %d not sent in time", now.Sub(start).Seconds(), scheduled, missed)
			nextLog = nextLog.Add(10 * time.Second)
		}
	}
	return scheduled, missed, bySecond
}

// post sends one request and reads the response to its end, so the connection goes back to the pool.
func (w *worker) post(client *http.Client, target *url.URL, header http.Header, body []byte) {
	req := &http.Request{Method: http.MethodPost, URL: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: header, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Host: target.Host}
	if w.ctx != nil {
		req = req.WithContext(w.ctx)
	}
	sent := time.Now()
	resp, err := client.Do(req)
	if w.ctx != nil {
		sent = w.gotConn
	}
	if err != nil {
		w.errors++
		if len(w.samples) < 3 {
			w.samples = append(w.samples, err.Error())
		}
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	now := time.Now()
	w.latencies = append(w.latencies, float32(now.Sub(sent).Seconds()*1000))
	if w.sample {
		w.answered = append(w.answered, now.UnixMilli())
	}
	w.status[resp.StatusCode]++
}

func summarise(c config, workers []*worker, scheduled, missed int64) report {
	r := report{URL: c.url, Channel: c.channel, RatePerSecond: c.rate, Batch: c.batch, Devices: c.devices,
		Conns: c.conns, DurationSeconds: c.duration.Seconds(), Scheduled: scheduled, NotSentInTime: missed,
		Sent: scheduled - missed, StatusCounts: map[string]int64{}}
	var all []float32
	for _, w := range workers {
		for code, n := range w.status {
			r.StatusCounts[strconv.Itoa(code)] += n
			if code != http.StatusAccepted {
				r.Non202 += n
			}
		}
		r.TransportErrors += w.errors
		for _, s := range w.samples {
			if len(r.TransportErrorSample) < 5 {
				r.TransportErrorSample = append(r.TransportErrorSample, s)
			}
		}
		all = append(all, w.latencies...)
	}
	r.UplinksAccepted = r.StatusCounts["202"] * int64(c.batch)
	r.Errors = r.Non202 + r.TransportErrors + r.NotSentInTime
	r.RequestsPerSecond = round1(float64(r.Sent) / r.DurationSeconds)
	r.AcceptedPerSecond = round1(float64(r.UplinksAccepted) / r.DurationSeconds)
	if len(all) > 0 {
		sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
		pct := func(p float64) float64 { return round1(float64(all[int(math.Ceil(p*float64(len(all))))-1])) }
		r.LatencyP50Ms, r.LatencyP95Ms, r.LatencyP99Ms = pct(0.5), pct(0.95), pct(0.99)
		r.LatencyMaxMs = round1(float64(all[len(all)-1]))
	}
	return r
}

// cpuTimes is this process's user and system CPU seconds so far (every goroutine and the runtime's threads).
func cpuTimes() [2]float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		log.Fatal(err)
	}
	seconds := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return [2]float64{seconds(u.Utime), seconds(u.Stime)}
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
