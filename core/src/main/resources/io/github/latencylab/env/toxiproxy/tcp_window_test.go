package main

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"github.com/Shopify/toxiproxy/v2/stream"
	"github.com/Shopify/toxiproxy/v2/toxics"
)

const mss = 1448

func linuxWindow(rttMicros int64) *TCPWindowToxic {
	return &TCPWindowToxic{RTT: rttMicros, InitialWindow: 10 * mss, MaxWindow: 64 << 20,
		RTOMin: 200_000, SlowStartAfterIdle: 1, InitialReceiveWindow: 64_088, MSS: mss}
}

type windowRun struct {
	input  chan *stream.StreamChunk
	output chan *stream.StreamChunk
	stub   *toxics.ToxicStub
	toxic  *TCPWindowToxic
	done   chan struct{}
}

func startWindow(toxic *TCPWindowToxic) *windowRun {
	r := &windowRun{input: make(chan *stream.StreamChunk, 1024),
		output: make(chan *stream.StreamChunk, 1<<16), toxic: toxic, done: make(chan struct{})}
	r.stub = toxics.NewToxicStub(r.input, r.output)
	r.stub.State = toxic.NewState()
	go func() {
		r.stub.Run(&toxics.ToxicWrapper{Toxic: toxic, Toxicity: 1})
		close(r.done)
	}()
	return r
}

// send puts n bytes in 32 kB chunks (Toxiproxy's read size), all arrived at `at`, and returns
// the bytes.
func (r *windowRun) send(n int, at time.Time) []byte {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 7)
	}
	for off := 0; off < n; off += 32 << 10 {
		end := off + 32<<10
		if end > n {
			end = n
		}
		r.input <- &stream.StreamChunk{Data: data[off:end], Timestamp: at}
	}
	return data
}

// receive reads n bytes and returns them with the bytes released at each release time, in order.
func (r *windowRun) receive(t *testing.T, n int) ([]byte, []time.Time, map[time.Time]int) {
	t.Helper()
	var got []byte
	var times []time.Time
	perTime := map[time.Time]int{}
	deadline := time.After(20 * time.Second)
	for len(got) < n {
		select {
		case c := <-r.output:
			if _, seen := perTime[c.Timestamp]; !seen {
				times = append(times, c.Timestamp)
			}
			perTime[c.Timestamp] += len(c.Data)
			got = append(got, c.Data...)
		case <-deadline:
			t.Fatalf("received %d of %d bytes", len(got), n)
		}
	}
	return got, times, perTime
}

func (r *windowRun) stop() {
	r.input <- nil
	<-r.done
}

// A transfer from a cold window leaves in flights one RTT apart, each twice the one before:
// 10 segments, 20, 40, ... exactly, by the timestamps the toxic gives them.
func TestSlowStartDoublesTheWindowEachRoundTrip(t *testing.T) {
	rtt := 10 * time.Millisecond
	r := startWindow(linuxWindow(rtt.Microseconds()))
	defer r.stop()
	start := time.Now()
	sent := r.send(577_000, start)
	got, times, perTime := r.receive(t, len(sent))
	if !bytes.Equal(got, sent) {
		t.Fatal("the bytes came out changed or out of order")
	}
	want := []int{10 * mss, 20 * mss, 40 * mss, 80 * mss, 160 * mss}
	for k, w := range want {
		if !times[k].Equal(start.Add(time.Duration(k) * rtt)) {
			t.Fatalf("flight %d released at +%v, want +%v", k, times[k].Sub(start), time.Duration(k)*rtt)
		}
		if perTime[times[k]] != w {
			t.Fatalf("flight %d carried %d bytes, want %d", k, perTime[times[k]], w)
		}
	}
	if len(times) != 6 || perTime[times[5]] != 577_000-310*mss {
		t.Fatalf("577 kB took %d flights (last %d bytes), want 6", len(times), perTime[times[len(times)-1]])
	}
}

func TestTheWindowStopsGrowingAtItsCap(t *testing.T) {
	rtt := 5 * time.Millisecond
	toxic := linuxWindow(rtt.Microseconds())
	toxic.MaxWindow = 50_000
	r := startWindow(toxic)
	defer r.stop()
	start := time.Now()
	sent := r.send(300_000, start)
	_, times, perTime := r.receive(t, len(sent))
	for k, w := range []int{10 * mss, 20 * mss, 50_000, 50_000, 50_000} {
		if perTime[times[k]] != w {
			t.Fatalf("flight %d carried %d bytes, want %d", k, perTime[times[k]], w)
		}
	}
}

// Requests that never fill the window do not grow it (Linux grows only a window in use).
func TestSmallExchangesLeaveTheWindowWhereItWas(t *testing.T) {
	rtt := 2 * time.Millisecond
	r := startWindow(linuxWindow(rtt.Microseconds()))
	defer r.stop()
	for i := 0; i < 20; i++ {
		at := time.Now()
		r.send(100, at)
		_, times, _ := r.receive(t, 100)
		if !times[0].Equal(at) {
			t.Fatalf("request %d held back %v: the window never binds a 100-byte request", i, times[0].Sub(at))
		}
		time.Sleep(rtt + time.Millisecond)
	}
	if cwnd := r.stub.State.(*windowState).cwnd; cwnd != 10*mss {
		t.Fatalf("window %d after 20 small exchanges, want still %d", cwnd, 10*mss)
	}
}

// After the transfer the window is warm; idle for longer than RTT + RTOMin, it halves per
// timeout (Linux), unless the stack keeps it (BBR: SlowStartAfterIdle 0).
func TestAWarmWindowCoolsAfterAnIdleOnlyWhereTheStackSaysSo(t *testing.T) {
	rtt := 5 * time.Millisecond
	for _, restart := range []int64{1, 0} {
		toxic := linuxWindow(rtt.Microseconds())
		toxic.RTOMin = 20_000 // an RTO of 25 ms keeps the test short
		toxic.SlowStartAfterIdle = restart
		r := startWindow(toxic)
		r.receive(t, len(r.send(577_000, time.Now())))
		warm := r.stub.State.(*windowState).cwnd
		time.Sleep(2*rtt + 60*time.Millisecond) // idle ~2.4 timeouts after the last ack
		at := time.Now()
		_, times, perTime := r.receive(t, len(r.send(400_000, at)))
		first := perTime[times[0]]
		if restart == 1 && (first > int(warm)/2 || first < 10*mss) {
			t.Fatalf("after an idle, first flight %d bytes; warm window was %d: want it halved at least", first, warm)
		}
		if restart == 0 && first != 400_000 {
			t.Fatalf("without slow start after idle, first flight %d bytes, want all 400000 (window %d)", first, warm)
		}
		r.stop()
	}
}

func TestRemovingTheToxicPassesOnWhatItHeld(t *testing.T) {
	r := startWindow(linuxWindow(10_000_000)) // acks in 10 s: everything past the first window is held
	sent := r.send(100_000, time.Now())
	time.Sleep(20 * time.Millisecond)
	if !r.stub.InterruptToxic() {
		t.Fatal("could not interrupt")
	}
	// the chunks Pipe had not read yet are still in its input: Toxiproxy's RemoveToxic drains
	// those itself after Cleanup
	r.toxic.Cleanup(r.stub)
	for len(r.input) > 0 {
		r.output <- <-r.input
	}
	got, _, _ := r.receive(t, len(sent))
	if !bytes.Equal(got, sent) {
		t.Fatal("bytes lost or reordered on removal")
	}
}

// A warm window that small requests keep busy but never fill keeps its size, with or without
// the restart after an idle: each acknowledgement of data stamps its use afresh (Linux's
// tcp_cong_avoid), so RFC 2861's shrink of a window in use never comes on a path without loss.
func TestAWindowKeptBusyButNotFullKeepsItsSize(t *testing.T) {
	rtt := 5 * time.Millisecond
	for _, restart := range []int64{1, 0} {
		toxic := linuxWindow(rtt.Microseconds())
		toxic.RTOMin = 20_000
		toxic.SlowStartAfterIdle = restart
		r := startWindow(toxic)
		r.receive(t, len(r.send(577_000, time.Now())))
		for i := 0; i < 16; i++ { // 100 B every 5 ms: never idle for a timeout, never full
			r.receive(t, len(r.send(100, time.Now())))
			time.Sleep(rtt)
		}
		_, times, perTime := r.receive(t, len(r.send(400_000, time.Now())))
		if first := perTime[times[0]]; first != 400_000 {
			t.Fatalf("slow start after idle %d: a window kept busy for 80 ms then sent %d bytes at once, want all 400000", restart, first)
		}
		r.stop()
	}
}

// A warm window carries at once what the last transfer grew it to: after a cold 577 kB, a
// second 577 kB goes in one flight (the kernel at 80 and 320 ms: cwnd 410 segments, the
// server's receive window 1.07 MB).
func TestAWarmWindowCarriesWhatTheLastTransferGrewItTo(t *testing.T) {
	rtt := 5 * time.Millisecond
	r := startWindow(linuxWindow(rtt.Microseconds()))
	defer r.stop()
	r.receive(t, len(r.send(577_000, time.Now())))
	time.Sleep(rtt + rtt/2)
	_, times, _ := r.receive(t, len(r.send(577_000, time.Now())))
	if len(times) != 1 {
		t.Fatalf("warm 577 kB went in %d flights, want 1", len(times))
	}
}

// The receiver, not the sender, holds a new connection's first flights when its window is the
// smaller: it opens by twice every full segment that arrived.
func TestTheReceiverOpensByTwiceEveryFullSegmentItReceived(t *testing.T) {
	rtt := 5 * time.Millisecond
	toxic := linuxWindow(rtt.Microseconds())
	toxic.InitialWindow = 100 * mss
	toxic.InitialReceiveWindow = 20_000
	r := startWindow(toxic)
	defer r.stop()
	_, times, perTime := r.receive(t, len(r.send(200_000, time.Now())))
	second := 20_000 + 2*(20_000/mss*mss) // 57,648
	if perTime[times[0]] != 20_000 || perTime[times[1]] != second {
		t.Fatalf("flights of %d and %d bytes, want 20000 and %d", perTime[times[0]], perTime[times[1]], second)
	}
}

// The window outgrows the cap on what is in flight (Linux: up to twice what was in flight), so
// after an idle of one timeout's halving the cap, not half of it, still binds.
func TestTheWindowOutgrowsTheCapAndOutlastsAHalving(t *testing.T) {
	rtt := 5 * time.Millisecond
	toxic := linuxWindow(rtt.Microseconds())
	toxic.MaxWindow = 50_000
	toxic.RTOMin = 95_000 // an RTO of 100 ms: a busy machine's late wake-up stays well inside it
	r := startWindow(toxic)
	defer r.stop()
	r.receive(t, len(r.send(1_000_000, time.Now())))
	if cwnd := r.stub.State.(*windowState).cwnd; cwnd < 2*50_000-mss {
		t.Fatalf("window %d after 1 MB under a 50,000 B cap, want about twice the cap", cwnd)
	}
	time.Sleep(rtt + 160*time.Millisecond) // idle ~1.6 timeouts after the last ack: one halving
	_, times, perTime := r.receive(t, len(r.send(200_000, time.Now())))
	if perTime[times[0]] != 50_000 {
		t.Fatalf("first flight after one halving %d bytes, want the cap, 50000", perTime[times[0]])
	}
}

// An idle's restart is all it costs: the window, halved once for an idle of 1.6 timeouts, is
// not shrunk again for the same idle when a reply's first write (8 kB) goes alone and its rest
// 8 ms later. The kernel's 8 MB reply after a 2 s idle at 320 ms went in 5.1 RTTs in every run;
// a link that shrank it again took 6.1 whenever PostgreSQL's first write came alone.
func TestAnIdleIsPaidForOnce(t *testing.T) {
	rtt := 20 * time.Millisecond
	toxic := linuxWindow(rtt.Microseconds())
	toxic.RTOMin = 180_000 // an RTO of 200 ms: a busy machine's late wake-up stays inside it
	r := startWindow(toxic)
	defer r.stop()
	_, cold, _ := r.receive(t, len(r.send(577_000, time.Now())))
	// slow start: grown by every byte acknowledged
	warm := 10*mss + 577_000
	// 1.6 timeouts
	time.Sleep(time.Until(cold[len(cold)-1].Add(320 * time.Millisecond)))
	r.receive(t, len(r.sendWrites(8192, 8192, time.Now())))
	time.Sleep(8 * time.Millisecond)
	_, times, perTime := r.receive(t, len(r.send(400_000, time.Now())))
	if first, want := perTime[times[0]], warm/2-8192; first < want-mss || first > want+mss {
		t.Fatalf("after one halving, the rest of the reply went %d bytes at once; want the halved window %d less the 8 kB in flight, %d",
			first, warm/2, want)
	}
}

// A COPY's second load on a warm connection: its window was last full two RTTs before (the
// load, then the COPY statement's round trip), longer than the timeout at 320 ms, and the toxic
// sees the load in 32 kB chunks: the window is kept, and the load goes in one flight, as the
// kernel's did at 320 ms.
func TestAWriteThatComesInChunksIsOneWrite(t *testing.T) {
	rtt := 32 * time.Millisecond
	toxic := linuxWindow(rtt.Microseconds())
	toxic.RTOMin = 1_000 // the timeout falls under two RTTs, as at 320 ms (564 ms)
	r := startWindow(toxic)
	defer r.stop()
	var flights []time.Time
	for k := 0; k < 2; k++ {
		r.receive(t, len(r.send(50, time.Now()))) // the COPY statement
		time.Sleep(rtt)
		_, flights, _ = r.receive(t, len(r.send(57_000, time.Now())))
		time.Sleep(time.Until(flights[len(flights)-1].Add(rtt))) // its answer
	}
	if len(flights) != 1 {
		t.Fatalf("a warm 57 kB load went in %d flights, want 1", len(flights))
	}
}

// The timeout a long path's sender waits is Linux's estimate: RTT plus a variance that starts
// at twice the RTT (the handshake's sample) and loses a quarter of its excess over RTOMin with
// each window acknowledged: 80, 65, 53.75, 45.3125 ms here.
func TestTheTimeoutStartsLongAndSettlesWindowByWindow(t *testing.T) {
	rtt := 40 * time.Millisecond
	toxic := linuxWindow(rtt.Microseconds())
	toxic.RTOMin = 20_000
	r := startWindow(toxic)
	defer r.stop()
	for i := 0; i < 4; i++ {
		r.receive(t, len(r.send(100, time.Now())))
		time.Sleep(rtt + 5*time.Millisecond)
	}
	s := r.stub.State.(*windowState)
	if want := 40*time.Millisecond + 45312500*time.Nanosecond; toxic.rto(s) != want {
		t.Fatalf("timeout %v after 3 windows acknowledged, want %v", toxic.rto(s), want)
	}
}

// linuxSender is linuxWindow with the sender's buffer of a new Linux socket: twice the initial
// window (tcp_sndbuf_expand at connect).
func linuxSender(rttMicros int64) *TCPWindowToxic {
	toxic := linuxWindow(rttMicros)
	toxic.InitialSendBuffer = 2 * toxic.InitialWindow
	return toxic
}

// sendWrites puts n bytes in writes of `write` bytes (PostgreSQL's 8 kB), all arrived at `at`.
func (r *windowRun) sendWrites(n, write int, at time.Time) []byte {
	data := make([]byte, n)
	for off := 0; off < n; off += write {
		end := off + write
		if end > n {
			end = n
		}
		r.input <- &stream.StreamChunk{Data: data[off:end], Timestamp: at}
	}
	return data
}

// A new sender whose window is larger than its buffer sends what the buffer holds: twice the
// initial window, not the window.
func TestANewSendersBufferHoldsTwiceTheInitialWindow(t *testing.T) {
	rtt := 5 * time.Millisecond
	toxic := linuxSender(rtt.Microseconds())
	toxic.InitialWindow = 100 * mss
	toxic.InitialSendBuffer = 20 * mss
	r := startWindow(toxic)
	defer r.stop()
	_, times, perTime := r.receive(t, len(r.send(200_000, time.Now())))
	if perTime[times[0]] != 20*mss {
		t.Fatalf("first flight %d bytes, want the buffer's %d", perTime[times[0]], 20*mss)
	}
}

// The kernel's server socket after a cold 78.7 kB reply (1,000 rows) kept a buffer of 32-40
// segments (73,728-92,160 B of sk_sndbuf at 2,304 B a segment) with a window of 65: the same
// reply again at once took two flights (57,344 B, then the rest), not one. The buffer grew
// only while the reply waited on it, so no further than the cold reply needed.
func TestAWarmReplyWaitsOnTheBufferItsColdOneGrew(t *testing.T) {
	for _, write := range []int{8192, 32 << 10} { // PostgreSQL's writes; Toxiproxy's reads
		t.Run(strconv.Itoa(write), func(t *testing.T) { aWarmReplyWaitsOnTheBuffer(t, write) })
	}
}

func aWarmReplyWaitsOnTheBuffer(t *testing.T, write int) {
	rtt := 10 * time.Millisecond
	r := startWindow(linuxSender(rtt.Microseconds()))
	defer r.stop()
	const reply = 78_672
	_, cold, _ := r.receive(t, len(r.sendWrites(reply, write, time.Now())))
	if len(cold) != 3 {
		t.Fatalf("a cold 78.7 kB reply went in %d flights, want 3 (10, 20, 40 segments)", len(cold))
	}
	time.Sleep(time.Until(cold[len(cold)-1].Add(rtt + rtt/2)))
	s := r.stub.State.(*windowState) // the last acknowledgement is counted when data comes next
	if s.sndbuf != 2*20*mss {
		t.Fatalf("after the cold reply: buffer %d; want twice the 20 segments it passed, %d",
			s.sndbuf, 2*20*mss)
	}
	buffer := s.sndbuf
	_, warm, perTime := r.receive(t, len(r.sendWrites(reply, write, time.Now())))
	if len(warm) != 2 || int64(perTime[warm[0]]) != buffer {
		t.Fatalf("the warm reply went in %d flights, the first %d bytes; want 2, the first the buffer's %d",
			len(warm), perTime[warm[0]], buffer)
	}
}

// A large transfer keeps its sender waiting on the buffer, so the buffer doubles with the
// window (the kernel's after a cold 781 kB reply: 2 x 160-176 segments), and the next transfer
// of the same size still takes two flights, as the kernel's did at 80 and 320 ms.
func TestTheBufferGrowsWithTheWindowWhileTheSenderWaitsOnIt(t *testing.T) {
	for _, write := range []int{8192, 32 << 10} { // PostgreSQL's writes; Toxiproxy's reads
		t.Run(strconv.Itoa(write), func(t *testing.T) { theBufferGrowsWithTheWindow(t, write) })
	}
}

// the toxic reads no further while it holds data: what waits in Toxiproxy's channel is the
// application's too
func theBufferGrowsWithTheWindow(t *testing.T, write int) {
	rtt := 10 * time.Millisecond
	r := startWindow(linuxSender(rtt.Microseconds()))
	defer r.stop()
	const reply = 781_220
	_, cold, _ := r.receive(t, len(r.sendWrites(reply, write, time.Now())))
	time.Sleep(time.Until(cold[len(cold)-1].Add(rtt + rtt/2)))
	s := r.stub.State.(*windowState)
	if s.sndbuf != 2*160*mss {
		t.Fatalf("buffer %d after a cold 781 kB; want 2 x 160 segments (%d)", s.sndbuf, 2*160*mss)
	}
	_, warm, _ := r.receive(t, len(r.sendWrites(reply, write, time.Now())))
	if len(warm) != 2 {
		t.Fatalf("the warm 781 kB went in %d flights, want 2", len(warm))
	}
}

// What Toxiproxy has read but the toxic does not hold yet is the application's too: the toxic
// reads no further while it holds data, where the application would have filled its buffer
// and waited. A 100 kB reply behind a 15-segment window and a 20-segment buffer: the first
// flight leaves 3 kB held, less than the buffer's room, with the rest in Toxiproxy's channel;
// the sender waits, so the buffer doubles past the grown window and the next flight is the
// window's 30 segments, not the old buffer's 20.
func TestWhatToxiproxyReadAheadWaitsOnTheBufferToo(t *testing.T) {
	rtt := 10 * time.Millisecond
	toxic := linuxWindow(rtt.Microseconds())
	toxic.InitialWindow = 15 * mss
	toxic.InitialSendBuffer = 20 * mss
	r := startWindow(toxic)
	defer r.stop()
	_, times, perTime := r.receive(t, len(r.sendWrites(100_000, 8192, time.Now())))
	if perTime[times[0]] != 15*mss || perTime[times[1]] != 30*mss {
		t.Fatalf("flights of %d and %d bytes; want the window's 15 and 30 segments (%d, %d)",
			perTime[times[0]], perTime[times[1]], 15*mss, 30*mss)
	}
}
