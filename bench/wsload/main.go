// Command wsload holds thousands of dashboard WebSocket subscriptions to one channel while publishing
// uplinks to that channel at a fixed rate, then reports delivery loss and end-to-end latency
// (uplink receivedAt at ingest -> message read by the subscriber). k6 cannot hold this many sockets:
// each VU costs megabytes, a goroutine here costs kilobytes.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

type config struct {
	wsURL, ingestURL, token, deviceKey, channel, report, dump, samples string
	subscribers, devices                                               int
	rate, connectRate                                                  float64
	duration, drain                                                    time.Duration
}

type subscriber struct {
	conn      *websocket.Conn
	received  int64
	dropped   int64
	latencies []float32
	arrivals  []int64 // with -samples: when each latency's data unit was read, ms since the epoch
	ready     chan struct{}
	closeCode int
}

type report struct {
	Subscribers        int     `json:"subscribers"`
	Connected          int     `json:"connected"`
	ConnectSeconds     float64 `json:"connectSeconds"`
	RatePerSecond      float64 `json:"ratePerSecond"`
	DurationSeconds    float64 `json:"durationSeconds"`
	Published          int64   `json:"published"`
	PublishFailures    int64   `json:"publishFailures"`
	Expected           int64   `json:"expectedDeliveries"`
	Received           int64   `json:"received"`
	Lost               int64   `json:"lost"`
	DroppedNotices     int64   `json:"droppedByServer"`
	ClosedEarly        int     `json:"closedEarly"`
	DeliveriesPerSec   float64 `json:"deliveriesPerSecond"`
	LatencyMeanMs      float64 `json:"latencyMeanMs"`
	LatencyP50Ms       float64 `json:"latencyP50Ms"`
	LatencyP90Ms       float64 `json:"latencyP90Ms"`
	LatencyP95Ms       float64 `json:"latencyP95Ms"`
	LatencyP99Ms       float64 `json:"latencyP99Ms"`
	LatencyMaxMs       float64 `json:"latencyMaxMs"`
	PostP50Ms          float64 `json:"postP50Ms"`
	PostP90Ms          float64 `json:"postP90Ms"`
	PostP99Ms          float64 `json:"postP99Ms"`
	PostMaxMs          float64 `json:"postMaxMs"`
	HeapAfterConnectMB float64 `json:"loadClientHeapMB"`
}

func main() {
	var c config
	flag.StringVar(&c.wsURL, "ws", "ws://127.0.0.1:8083/ws", "notify WebSocket URL")
	flag.StringVar(&c.ingestURL, "ingest", "http://127.0.0.1:8080", "ingest base URL")
	flag.StringVar(&c.token, "token", "demo-dashboard-token", "dashboard token")
	flag.StringVar(&c.deviceKey, "device-key", "demo-device-key", "device key")
	flag.StringVar(&c.channel, "channel", fmt.Sprintf("fanout-%d", time.Now().UnixNano()), "channel to publish to and subscribe on")
	flag.StringVar(&c.report, "report", "", "write the JSON report here as well as to stdout")
	flag.IntVar(&c.subscribers, "subscribers", 1000, "WebSocket subscribers")
	flag.IntVar(&c.devices, "devices", 10, "devices the publisher posts as (round robin)")
	flag.Float64Var(&c.rate, "rate", 1, "uplinks published per second; 0 publishes nothing and only listens for -duration (e.g. beside a k6 suite on the same channel)")
	flag.Float64Var(&c.connectRate, "connect-rate", 1000, "new connections per second while connecting")
	flag.DurationVar(&c.duration, "duration", time.Minute, "how long to publish (with -rate 0: to listen)")
	flag.DurationVar(&c.drain, "drain", 5*time.Second, "how long to wait for deliveries after the last publish")
	flag.StringVar(&c.dump, "dump", "", "write the first subscriber's latencies (ms, arrival order) here, one a line")
	flag.StringVar(&c.samples, "samples", "", "write every data unit every subscriber read here: ms since the epoch when it was read, its latency in ms")
	flag.Parse()
	sampling = c.samples != ""

	subs := connectAll(c)
	connected := 0
	for _, s := range subs {
		if s.conn != nil {
			connected++
		}
	}
	var mem runtimeMem
	heap := mem.heapMB()
	log.Printf("%d of %d subscribers connected and subscribed to %s", connected, c.subscribers, c.channel)

	published, failures, posts := publish(c)
	time.Sleep(c.drain)
	for _, s := range subs {
		if s.conn != nil {
			s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "done"), time.Now().Add(time.Second))
			s.conn.Close()
		}
	}
	if c.dump != "" && len(subs) > 0 {
		var b strings.Builder
		for _, v := range subs[0].latencies {
			fmt.Fprintf(&b, "%.1f\n", v)
		}
		os.WriteFile(c.dump, []byte(b.String()), 0o644)
	}
	if c.samples != "" {
		writeSamples(c.samples, subs)
	}
	r := summarise(c, subs, connected, published, failures)
	r.PostP50Ms, r.PostP90Ms, r.PostP99Ms, r.PostMaxMs = percentiles(posts)
	r.HeapAfterConnectMB = heap
	out, _ := json.MarshalIndent(r, "", "  ")
	fmt.Println(string(out))
	if c.report != "" {
		if err := os.WriteFile(c.report, append(out, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

var connectStarted time.Time
var connectSeconds float64

func connectAll(c config) []*subscriber {
	dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 4096, WriteBufferSize: 1024}
	header := http.Header{"Authorization": {"Bearer " + c.token}}
	subscribe := fmt.Sprintf(`{"type":"subscribe","id":"s","stream":"data-units","filter":{"channel":%q}}`, c.channel)
	subs := make([]*subscriber, c.subscribers)
	var wg sync.WaitGroup
	interval := time.Duration(float64(time.Second) / c.connectRate)
	connectStarted = time.Now()
	for i := range subs {
		s := &subscriber{ready: make(chan struct{})}
		subs[i] = s
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, _, err := dialer.Dial(c.wsURL, header)
			if err != nil {
				log.Printf("connect: %v", err)
				close(s.ready)
				return
			}
			if err := conn.WriteMessage(websocket.TextMessage, []byte(subscribe)); err != nil {
				log.Printf("subscribe: %v", err)
				conn.Close()
				close(s.ready)
				return
			}
			s.conn = conn
			go s.read()
		}()
		time.Sleep(interval)
	}
	wg.Wait()
	for _, s := range subs {
		<-s.ready
	}
	connectSeconds = time.Since(connectStarted).Seconds()
	return subs
}

var (
	typeDataUnit = []byte(`"type":"data-unit"`)
	typeDropped  = []byte(`"type":"dropped"`)
	typeOK       = []byte(`"type":"subscribed"`)
	receivedKey  = []byte(`"receivedAt":"`)
)

// read runs per connection; it pulls receivedAt out of the bytes rather than decoding the whole message,
// so that the load client, which shares the machine, spends as little CPU per message as it can.
func (s *subscriber) read() {
	readyClosed := false
	for {
		_, msg, err := s.conn.ReadMessage()
		now := time.Now()
		if err != nil {
			if ce, ok := err.(*websocket.CloseError); ok {
				s.closeCode = ce.Code
			}
			if !readyClosed {
				close(s.ready)
			}
			return
		}
		switch {
		case bytes.Contains(msg, typeDataUnit):
			atomic.AddInt64(&s.received, 1)
			if i := bytes.Index(msg, receivedKey); i >= 0 {
				rest := msg[i+len(receivedKey):]
				if j := bytes.IndexByte(rest, '"'); j > 0 {
					if t, err := time.Parse(time.RFC3339Nano, string(rest[:j])); err == nil {
						s.latencies = append(s.latencies, float32(now.Sub(t).Seconds()*1000))
						if sampling {
							s.arrivals = append(s.arrivals, now.UnixMilli())
						}
					}
				}
			}
		case bytes.Contains(msg, typeDropped):
			var d struct{ Count int64 }
			json.Unmarshal(msg, &d)
			atomic.AddInt64(&s.dropped, d.Count)
		case bytes.Contains(msg, typeOK):
			if !readyClosed {
				readyClosed = true
				close(s.ready)
			}
		}
	}
}

// sampling: -samples was given, so each subscriber keeps when it read each data unit.
var sampling bool

// writeSamples writes each subscriber's data units in the order it read them: when (ms since the epoch), latency (ms).
func writeSamples(path string, subs []*subscriber) {
	var b strings.Builder
	for _, s := range subs {
		for i, at := range s.arrivals {
			fmt.Fprintf(&b, "%d %.1f\n", at, s.latencies[i])
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// publish posts at the configured rate and returns the uplinks accepted, the failures and each accepted POST's
// time from sending the request to reading the 202, in ms.
func publish(c config) (int64, int64, []float32) {
	if c.rate <= 0 {
		time.Sleep(c.duration)
		return 0, 0, nil
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	url := fmt.Sprintf("%s/sensor-data/%s/encoded/em300th", strings.TrimRight(c.ingestURL, "/"), c.channel)
	var published, failures int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var posts []float32
	interval := time.Duration(float64(time.Second) / c.rate)
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	deadline := time.Now().Add(c.duration)
	for n := 0; time.Now().Before(deadline); n++ {
		<-ticker.C
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			body := fmt.Sprintf(`{"deviceId":"fan-%d","payloadHex":"0175640367%s046850"}`, n%c.devices, le16(200+n%100))
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+c.deviceKey)
			sent := time.Now()
			resp, err := client.Do(req)
			if err != nil || resp.StatusCode != http.StatusAccepted {
				atomic.AddInt64(&failures, 1)
				if resp != nil {
					resp.Body.Close()
				}
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			took := float32(time.Since(sent).Seconds() * 1000)
			mu.Lock()
			posts = append(posts, took)
			mu.Unlock()
			atomic.AddInt64(&published, 1)
		}(n)
	}
	wg.Wait()
	return published, failures, posts
}

// percentiles gives p50, p90, p99 and max of the values (zeros when there are none).
func percentiles(values []float32) (float64, float64, float64, float64) {
	if len(values) == 0 {
		return 0, 0, 0, 0
	}
	sorted := append([]float32(nil), values...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	return percentile(sorted, 0.5), percentile(sorted, 0.9), percentile(sorted, 0.99), percentile(sorted, 1)
}

// percentile is the nearest-rank p-quantile of sorted (not empty) values, in ms rounded to 0.1.
func percentile(sorted []float32, p float64) float64 {
	return round(float64(sorted[int(math.Ceil(p*float64(len(sorted))))-1]))
}

func le16(v int) string {
	return fmt.Sprintf("%02X%02X", v&0xFF, (v>>8)&0xFF)
}

func summarise(c config, subs []*subscriber, connected int, published, failures int64) report {
	r := report{Subscribers: c.subscribers, Connected: connected, ConnectSeconds: connectSeconds, RatePerSecond: c.rate,
		DurationSeconds: c.duration.Seconds(), Published: published, PublishFailures: failures}
	var all []float32
	for _, s := range subs {
		if s.conn == nil {
			continue
		}
		r.Received += atomic.LoadInt64(&s.received)
		r.DroppedNotices += atomic.LoadInt64(&s.dropped)
		if s.closeCode != 0 && s.closeCode != websocket.CloseNormalClosure {
			r.ClosedEarly++
		}
		all = append(all, s.latencies...)
	}
	// Listening only, someone else publishes: nothing here knows what was expected.
	if c.rate > 0 {
		r.Expected = published * int64(connected)
		r.Lost = r.Expected - r.Received
	}
	r.DeliveriesPerSec = float64(r.Received) / c.duration.Seconds()
	if len(all) > 0 {
		sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
		var sum float64
		for _, v := range all {
			sum += float64(v)
		}
		r.LatencyMeanMs = round(sum / float64(len(all)))
		r.LatencyP50Ms, r.LatencyP90Ms = percentile(all, 0.5), percentile(all, 0.9)
		r.LatencyP95Ms, r.LatencyP99Ms = percentile(all, 0.95), percentile(all, 0.99)
		r.LatencyMaxMs = percentile(all, 1)
	}
	return r
}

func round(v float64) float64 { return math.Round(v*10) / 10 }
