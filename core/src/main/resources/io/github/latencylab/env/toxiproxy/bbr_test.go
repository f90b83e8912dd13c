package main

import (
	"testing"
	"time"
)

// bbrWindow is linux-bbr's link: Linux's window and buffers, kept across idles, and BBR's
// startup (pacing, its own window growth, a buffer of three windows).
func bbrWindow(rttMicros int64) *TCPWindowToxic {
	toxic := linuxWindow(rttMicros)
	toxic.SlowStartAfterIdle = 0
	toxic.BBR = 1
	toxic.InitialSendBuffer = 3 * toxic.InitialWindow
	return toxic
}

// A new connection's first 10 segments leave at once; the same 14 kB again, once acknowledged,
// is paced at startup's first rate, 2.89 x 10 segments per RTT (less BBR's 1% margin): bursts
// of two segments 1.4 ms apart at 20 ms, the first two at once (the idle pacer's credit pays
// for the first). The kernel's BBR at 320 ms took 1.3 RTTs for it, the link before pacing 1.0.
func TestBBRPacesAWarmReplyAtStartupsFirstRate(t *testing.T) {
	rtt := 20 * time.Millisecond
	r := startWindow(bbrWindow(rtt.Microseconds()))
	defer r.stop()
	start := time.Now()
	_, cold, _ := r.receive(t, len(r.send(10*mss, start)))
	if len(cold) != 1 || !cold[0].Equal(start) {
		t.Fatalf("the first 10 segments left at %d times, want 1, at once", len(cold))
	}
	time.Sleep(time.Until(start.Add(rtt + rtt/4)))
	at := time.Now()
	_, warm, perTime := r.receive(t, len(r.send(10*mss, at)))
	rate := bbrHighGain * bbrPacingMargin * 10 * mss / rtt.Seconds()
	gap := time.Duration(2 * mss / rate * float64(time.Second))
	if len(warm) != 4 || perTime[warm[0]] != 4*mss {
		t.Fatalf("the warm 10 segments left at %d times, %d bytes at first; want 4 segments, then 3 bursts of 2",
			len(warm), perTime[warm[0]])
	}
	for k, released := range warm {
		if want := at.Add(time.Duration(k) * gap); abs(released.Sub(want)) > time.Microsecond {
			t.Fatalf("burst %d left at +%v, want +%v (%.0f B/s)", k, released.Sub(at), want.Sub(at), rate)
		}
	}
}

// The pacing rate follows the best delivery rate: after a cold 577 kB (slow start's flights of
// 10, 20, 40, ... segments, each delivered over about an RTT) it is 2.89 x the best of them,
// and a warm 577 kB leaves at that rate, each burst its bytes' time after the one before, in
// one flight.
func TestBBRPacesAtTheBestDeliveryRateItMeasured(t *testing.T) {
	rtt := 10 * time.Millisecond
	r := startWindow(bbrWindow(rtt.Microseconds()))
	defer r.stop()
	_, cold, _ := r.receive(t, len(r.send(577_000, time.Now())))
	time.Sleep(time.Until(cold[len(cold)-1].Add(rtt + rtt/2)))
	at := time.Now()
	_, warm, perTime := r.receive(t, len(r.send(577_000, at))) // the acks count first
	p := r.stub.State.(*windowState).pace
	if initial := 10 * mss / rtt.Seconds(); p.bw < 16*initial {
		t.Fatalf("best delivery rate %.0f B/s after a cold 577 kB, want at least 16 x the first flight's %.0f", p.bw, initial)
	}
	if p.rate != bbrHighGain*bbrPacingMargin*p.bw {
		t.Fatalf("pacing at %.0f B/s, want 2.89 x %.0f", p.rate, p.bw)
	}
	if last := warm[len(warm)-1].Sub(at); len(warm) < 4 || last >= rtt {
		t.Fatalf("the warm 577 kB left at %d times, the last at +%v; want bursts in one flight", len(warm), last)
	}
	for k := 2; k < len(warm); k++ {
		want := time.Duration(float64(perTime[warm[k-1]]) / p.rate * float64(time.Second))
		if gap := warm[k].Sub(warm[k-1]); abs(gap-want) > time.Microsecond {
			t.Fatalf("burst %d left %v after the one before, want %v: its %d bytes at %.0f B/s",
				k, gap, want, perTime[warm[k-1]], p.rate)
		}
	}
}

// While the pacer holds data back, the window has room and the application waits on its
// buffer: Linux grows the buffer to three windows (tcp_new_space, bbr_sndbuf_expand). So a
// 57 kB load on a connection past its first 10 segments, paced from its first burst, grows
// the 43 kB buffer it started with, and the next 57 kB goes in one flight.
func TestBBRsBufferGrowsWhileThePacerHoldsData(t *testing.T) {
	rtt := 40 * time.Millisecond
	toxic := bbrWindow(rtt.Microseconds())
	r := startWindow(toxic)
	defer r.stop()
	_, first, _ := r.receive(t, len(r.send(10*mss, time.Now())))
	time.Sleep(time.Until(first[0].Add(rtt + rtt/4)))
	var flights []time.Time
	for k := 0; k < 2; k++ {
		_, flights, _ = r.receive(t, len(r.sendWrites(57_000, 8192, time.Now())))
		time.Sleep(time.Until(flights[len(flights)-1].Add(rtt + rtt/4)))
		if s := r.stub.State.(*windowState); k == 0 && s.sndbuf < 57_000 {
			t.Fatalf("buffer %d after a 57 kB load paced from its start, want it grown past the load (from %d)",
				s.sndbuf, toxic.InitialSendBuffer)
		}
	}
	if span := flights[len(flights)-1].Sub(flights[0]); span >= rtt {
		t.Fatalf("the second 57 kB load took %v from its first burst to its last, want one flight (under the %v RTT)", span, rtt)
	}
}

// An application that found its buffer full writes again only once the free space is half
// what is queued (Linux's sk_stream_write_space). A paced flight's acknowledgements come back
// a burst at a time, so a 30-segment buffer at its cap, full of 4-segment bursts 0.93 ms
// apart, takes nothing more at the first acknowledgement (of the two bursts the idle pacer
// sent together: 8 free, 22 queued), and refills at the second (12 free, 18 queued).
func TestBBRsApplicationWritesAgainOnceAThirdOfItsBufferIsFree(t *testing.T) {
	rtt := 20 * time.Millisecond
	toxic := bbrWindow(rtt.Microseconds())
	toxic.InitialWindow = 30 * mss
	toxic.MaxWindow = 30 * mss
	toxic.InitialSendBuffer = 0 // the cap
	r := startWindow(toxic)
	defer r.stop()
	_, first, _ := r.receive(t, len(r.send(10*mss, time.Now()))) // past the unpaced segments
	time.Sleep(time.Until(first[0].Add(rtt + rtt/4)))
	at := time.Now()
	_, times, perTime := r.receive(t, len(r.send(60*mss, at)))
	rate := r.stub.State.(*windowState).pace.rate
	gap := time.Duration(4 * mss / rate * float64(time.Second))
	released, k := 0, 0
	for ; released <= 30*mss; k++ {
		released += perTime[times[k]]
	}
	want := at.Add(rtt + gap)
	if got := times[k-1]; got.Before(want.Add(-time.Microsecond)) {
		t.Fatalf("the load's 31st segment left at +%v; want it to wait for the second acknowledgement, +%v",
			got.Sub(at), want.Sub(at))
	}
}

// BBR grows its window by what is acknowledged while it is under 2.89 x the measured
// bandwidth-delay product, full or not (bbr_set_cwnd): exchanges of 10 segments take it past
// the 20 segments that Linux's slow start stops at (twice what was in flight), to about
// 2.89 x 10 segments plus three bursts.
func TestBBRsWindowGrowsToItsTargetFullOrNot(t *testing.T) {
	rtt := 10 * time.Millisecond
	for _, bbr := range []bool{false, true} {
		toxic := linuxWindow(rtt.Microseconds())
		if bbr {
			toxic = bbrWindow(rtt.Microseconds())
		}
		r := startWindow(toxic)
		for i := 0; i < 6; i++ {
			_, times, _ := r.receive(t, len(r.send(10*mss, time.Now())))
			time.Sleep(time.Until(times[len(times)-1].Add(rtt + rtt/4)))
		}
		r.receive(t, len(r.send(100, time.Now()))) // counts the last acknowledgements
		cwnd := r.stub.State.(*windowState).cwnd
		r.stop()
		if !bbr && cwnd != 20*mss {
			t.Fatalf("slow start's window %d after exchanges of 10 segments, want 20 segments", cwnd)
		}
		gain := bbrHighGain
		if target := int64(gain*10*mss) + 3*2*mss; bbr && (cwnd < target || cwnd > target+2*mss) {
			t.Fatalf("BBR's window %d after exchanges of 10 segments, want its target, %d, or a burst over", cwnd, target)
		}
	}
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
