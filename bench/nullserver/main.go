// nullserver answers every HTTP request at once with 202 and a small JSON body, doing nothing else: run in place of
// the pipeline, it shows what a k6 suite's latencies would be with a server that costs next to nothing, on the same
// cores as the generator (bench/seed-waves.sh TARGET=null). With -feed, it also plays a pipeline whose every hop
// costs nothing: each POSTed uplink is pushed at once, as a data unit of the size notify sends, to every WebSocket
// subscriber of its channel, and GET /data-units/count answers how many uplinks a channel got, so a suite's
// delivery checks pass and its time_lapse is the generator's own. Without -feed, GET /data-units/count answers
// {"count":0} so the suites' final checks end instead of failing to parse.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// feed is the WebSocket side: per channel, its subscribers and how many uplinks it got.
type feed struct {
	mu       sync.Mutex
	channels map[string]*channelFeed
	seq      atomic.Int64
}

type channelFeed struct {
	uplinks     atomic.Int64
	subscribers []chan []byte
}

func newFeed() *feed {
	return &feed{channels: map[string]*channelFeed{}}
}

// channel returns the channel's state, made on first use; the caller holds f.mu.
func (f *feed) channel(name string) *channelFeed {
	c, ok := f.channels[name]
	if !ok {
		c = &channelFeed{}
		f.channels[name] = c
	}
	return c
}

func (f *feed) count(channel string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.channel(channel).uplinks.Load()
}

// publish hands a data unit for one uplink of channel to each subscriber's writer; a subscriber too far behind
// loses it, as k6 will then report (its delivery check fails).
func (f *feed) publish(channel, deviceID string, receivedAt time.Time) {
	f.mu.Lock()
	c := f.channel(channel)
	c.uplinks.Add(1)
	subs := c.subscribers
	f.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	n := f.seq.Add(1)
	at := receivedAt.UTC().Format(time.RFC3339Nano)
	message := []byte(fmt.Sprintf(`{"type":"data-unit","subscription":"units-0","data":{"id":"01a200a3-60d5-70ec-96cf-%012x",`+
		`"schemaVersion":1,"uplinkId":"01a200a3-60d5-7ddc-a24b-%012x","channel":%q,"deviceType":"em300th","deviceId":%q,`+
		`"measuredAt":%q,"receivedAt":%q,"decodedAt":%q,"measurements":{"humidity":50.0,"temperature":20.5,"battery":90.0},`+
		`"attributes":{}},"traceId":"01a200a360d57ddca24b%012x"}`, n, n, channel, deviceID, at, at, at, n))
	for _, sub := range subs {
		select {
		case sub <- message:
		default:
		}
	}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// serveWS answers subscribe messages and writes the data units of the channels subscribed to.
func (f *feed) serveWS(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	out := make(chan []byte, 1<<16)
	done := make(chan struct{})
	go func() {
		defer conn.Close()
		for {
			select {
			case m := <-out:
				if conn.WriteMessage(websocket.TextMessage, m) != nil {
					return
				}
			case <-done:
				return
			}
		}
	}()
	defer close(done)
	for {
		_, raw, err := conn.ReadMessage()
		if err != nil {
			return
		}
		var m struct {
			Type   string `json:"type"`
			ID     string `json:"id"`
			Filter struct {
				Channel string `json:"channel"`
			} `json:"filter"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		switch m.Type {
		case "subscribe":
			f.mu.Lock()
			c := f.channel(m.Filter.Channel)
			c.subscribers = append(c.subscribers, out)
			f.mu.Unlock()
			out <- []byte(fmt.Sprintf(`{"type":"subscribed","id":%q}`, m.ID))
		case "ping":
			out <- []byte(fmt.Sprintf(`{"type":"pong","id":%q}`, m.ID))
		}
	}
}

func main() {
	addr := flag.String("addr", "127.0.0.1:28090", "listen address")
	withFeed := flag.Bool("feed", false, "push every POSTed uplink to the WebSocket subscribers of its channel")
	flag.Parse()
	accepted := []byte(`{"accepted":1}`)
	zero := []byte(`{"count":0}`)
	f := newFeed()
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Taken on arrival, as ingest takes an uplink's receivedAt before it answers.
		receivedAt := time.Now()
		if *withFeed && r.URL.Path == "/ws" {
			f.serveWS(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			w.WriteHeader(http.StatusOK)
			if *withFeed && r.URL.Path == "/data-units/count" {
				fmt.Fprintf(w, `{"count":%d}`, f.count(r.URL.Query().Get("channel")))
				return
			}
			w.Write(zero)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		w.Write(accepted)
		if !*withFeed {
			return
		}
		w.(http.Flusher).Flush()
		// /sensor-data/{channel}/encoded/{type}: single uplinks only, as the seed shape posts them.
		if parts := strings.Split(r.URL.Path, "/"); len(parts) > 2 && parts[1] == "sensor-data" {
			var body struct {
				DeviceID string `json:"deviceId"`
			}
			json.NewDecoder(r.Body).Decode(&body)
			f.publish(parts[2], body.DeviceID, receivedAt)
		}
	})
	log.Fatal(http.ListenAndServe(*addr, handler))
}
