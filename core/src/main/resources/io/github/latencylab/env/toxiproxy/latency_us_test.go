package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/Shopify/toxiproxy/v2/stream"
	"github.com/Shopify/toxiproxy/v2/toxics"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// run starts the toxic on a stub of its own; the caller feeds input and reads output.
func run(t *testing.T, latencyMicros int64) (chan<- *stream.StreamChunk, <-chan *stream.StreamChunk, *toxics.ToxicStub, <-chan struct{}) {
	t.Helper()
	input := make(chan *stream.StreamChunk, 16)
	output := make(chan *stream.StreamChunk, 16)
	stub := toxics.NewToxicStub(input, output)
	done := make(chan struct{})
	go func() {
		stub.Run(&toxics.ToxicWrapper{Toxic: &MicrosecondLatencyToxic{Latency: latencyMicros}, Toxicity: 1})
		close(done)
	}()
	return input, output, stub, done
}

func TestEveryChunkLeavesAtItsDeadlineNotBefore(t *testing.T) {
	for _, micros := range []int64{0, 100, 250, 1000, 3000} {
		input, output, _, done := run(t, micros)
		delay := time.Duration(micros) * time.Microsecond
		for i := 0; i < 20; i++ {
			arrived := time.Now()
			data := []byte(fmt.Sprintf("chunk %d", i))
			input <- &stream.StreamChunk{Data: data, Timestamp: arrived}
			c := <-output
			left := time.Since(arrived)
			if !bytes.Equal(c.Data, data) {
				t.Fatalf("latency %d us: chunk %d came out as %q", micros, i, c.Data)
			}
			if left < delay {
				t.Fatalf("latency %d us: chunk %d left after %v, before its deadline", micros, i, left)
			}
			if left > delay+100*time.Millisecond {
				t.Fatalf("latency %d us: chunk %d left after %v", micros, i, left)
			}
		}
		input <- nil
		<-done
	}
}

func TestTheDelayCountsFromArrivalNotFromWhenTheToxicSeesTheChunk(t *testing.T) {
	input, output, _, done := run(t, 5000)
	arrived := time.Now().Add(-4 * time.Millisecond) // waited 4 ms in a buffer already
	input <- &stream.StreamChunk{Data: []byte("x"), Timestamp: arrived}
	c := <-output
	if waited := time.Since(arrived); waited < 5*time.Millisecond || waited > 50*time.Millisecond {
		t.Fatalf("left %v after arrival, want 5 ms", waited)
	}
	if !c.Timestamp.Equal(arrived.Add(5 * time.Millisecond)) {
		t.Fatalf("timestamp %v, want the deadline %v", c.Timestamp, arrived.Add(5*time.Millisecond))
	}
	input <- nil
	<-done
}

func TestAnInterruptPassesTheWaitingChunkOnAtOnce(t *testing.T) {
	input, output, stub, done := run(t, 10_000_000) // 10 s
	input <- &stream.StreamChunk{Data: []byte("in flight"), Timestamp: time.Now()}
	time.Sleep(10 * time.Millisecond)
	start := time.Now()
	if !stub.InterruptToxic() {
		t.Fatal("the toxic did not take the interrupt")
	}
	select {
	case c := <-output:
		if string(c.Data) != "in flight" {
			t.Fatalf("got %q", c.Data)
		}
	case <-time.After(time.Second):
		t.Fatal("the waiting chunk was not passed on")
	}
	<-done
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Fatalf("interrupt took %v", took)
	}
}

// Round trips through a real proxy with the toxic on both directions, each paired with one
// through a twin proxy without it. Prints the distribution (go test -v); asserts loosely, a
// shared machine is noisy: Java's calibrate command checks the accuracy.
func TestRoundTripsThroughAProxyGetTheirDelay(t *testing.T) {
	echo := echoServer(t)
	server := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()),
		zerolog.New(io.Discard))
	toxic := proxy(t, server, "toxic", echo)
	baseline := proxy(t, server, "baseline", echo)
	withToxic := dial(t, toxic.Listen)
	without := dial(t, baseline.Listen)
	samples := 300
	if v := os.Getenv("SAMPLES"); v != "" {
		fmt.Sscan(v, &samples)
	}
	for _, perDirection := range []int64{125, 250, 500, 2500} {
		for _, dir := range []string{"upstream", "downstream"} {
			body := fmt.Sprintf(`{"name":"%s","type":"latency_us","stream":"%s","toxicity":1,"attributes":{"latency":%d}}`,
				dir, dir, perDirection)
			if _, err := toxic.Toxics.AddToxicJson(strings.NewReader(body)); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 20; i++ {
			roundTrip(t, without)
			roundTrip(t, withToxic)
		}
		added := make([]float64, samples)
		for i := range added {
			before := roundTrip(t, without)
			added[i] = (roundTrip(t, withToxic) - before).Seconds() * 1000
		}
		sort.Float64s(added)
		asked := float64(2*perDirection) / 1000
		p := func(q float64) float64 { return added[int(q*float64(len(added)-1))] }
		mean := 0.0
		for _, a := range added {
			mean += a / float64(len(added))
		}
		t.Logf("asked %.3f ms: added mean %.3f, p1 %.3f, p50 %.3f, p99 %.3f ms",
			asked, mean, p(0.01), p(0.5), p(0.99))
		if p(0.5) < asked-0.05 || p(0.5) > asked+1 {
			t.Errorf("asked %.3f ms: added p50 %.3f ms", asked, p(0.5))
		}
		for _, dir := range []string{"upstream", "downstream"} {
			if err := toxic.Toxics.RemoveToxic(context.Background(), dir); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func echoServer(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go io.Copy(c, c)
		}
	}()
	return l.Addr().String()
}

func proxy(t *testing.T, server *toxiproxy.ApiServer, name, upstream string) *toxiproxy.Proxy {
	p := toxiproxy.NewProxy(server, name, "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

func dial(t *testing.T, addr string) net.Conn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func roundTrip(t *testing.T, c net.Conn) time.Duration {
	buf := []byte("ping")
	start := time.Now()
	if _, err := c.Write(buf); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}
