package main

import (
	"time"

	"github.com/Shopify/toxiproxy/v2/stream"
	"github.com/Shopify/toxiproxy/v2/toxics"
)

// TCPWindowToxic lets at most one TCP congestion window of bytes be in flight on its direction
// of a connection, as the sending stack of a long path would:
//
//	{"type": "tcp_window", "attributes": {"rtt": 320000, "initial_window": 14480,
//	 "max_window": 4194304, "rto_min": 200000, "slow_start_after_idle": 1,
//	 "initial_receive_window": 64088, "mss": 1448, "initial_send_buffer": 28960, "bbr": 0}}
//
// A byte released at t is acknowledged at t + RTT. The window starts at InitialWindow (RFC 6928:
// 10 segments) and grows by every byte acknowledged while the sender uses it (slow start, as
// Linux does it: only while cwnd-limited, or under twice what was in flight). What is in flight
// never passes MaxWindow (what the path's socket buffers allow); the window itself may, as
// Linux's does (9.2 MB of cwnd with 4 MB in flight, measured at 320 ms), so it outlasts more
// halvings after an idle. The receiver lets its peer have InitialReceiveWindow in flight at first
// and twice more for every full segment it received (Linux's rcv_ssthresh, which measured 1.07 MB
// after a cold 577 kB COPY). The sender's own buffer holds what it has in flight:
// InitialSendBuffer at first (Linux's tcp_sndbuf_expand at connect: twice the initial window,
// counted as one segment per slot), twice the window whenever an acknowledgement finds the
// application waiting on the buffer while the window has room the buffer cannot fill
// (tcp_new_space; three times with BBR, bbr_sndbuf_expand); so a connection that last moved 78 kB
// keeps a buffer of about 40 segments, and its next 78 kB reply takes two flights, as the
// kernel's did.
//
// With BBR (bbr.go) the sender paces and grows its window its own way, and an application that
// found the buffer full writes again only once a third of it is free (sk_stream_write_space),
// then fills it: a paced flight's acknowledgements come back spread out, so a full buffer refills
// in thirds, and what a refill put in it that the pacer still holds counts as queued.
//
// With SlowStartAfterIdle, a sender that had nothing in flight for longer than the retransmission
// timeout halves its window for each timeout idle, down to the initial window (RFC 2861; Linux's
// tcp_cwnd_restart). A window kept in use without being filled keeps its size: RFC 2861's slow
// part (Linux's tcp_cwnd_application_limited) waits a timeout from the window's last use, and
// Linux stamps that afresh on every acknowledgement of data (tcp_cong_avoid), which on a path
// that loses nothing comes within the RTT, less than the timeout (the kernel's Reno kept cwnd at
// 550 segments through link-check's busy 2 s of small replies at 320 ms).
// The timeout is Linux's estimate on a path of steady RTT: RTT plus a variance that starts at
// twice the RTT and loses a quarter of its excess over RTOMin with every window of data
// acknowledged (tcp_rtt_estimator; at 320 ms it measured 820 ms on a new connection, 564 ms after
// a 577 kB COPY). Nothing is lost, so slow start never ends: no congestion avoidance.
//
// Released data keeps the time it was released as its timestamp, exact rather than when a
// timer woke up, so a latency_us toxic after this one delays it from there. Data the window
// never holds back passes with its arrival time: a path that is not window-limited costs
// nothing here.
type TCPWindowToxic struct {
	RTT                int64 `json:"rtt"`                   // microseconds
	InitialWindow      int64 `json:"initial_window"`        // bytes
	MaxWindow          int64 `json:"max_window"`            // bytes
	RTOMin             int64 `json:"rto_min"`               // microseconds
	SlowStartAfterIdle int64 `json:"slow_start_after_idle"` // 1: on
	// bytes the receiver lets a new connection's peer send (Linux: rcv_ssthresh, ~64 kB); it
	// grows by twice every full segment received (tcp_grow_window), never shrinks
	InitialReceiveWindow int64 `json:"initial_receive_window"`
	// bytes a full segment carries: what the receiver counts to grow its window
	MSS int64 `json:"mss"`
	// bytes the sender's buffer holds on a new connection (Linux: twice the initial window);
	// 0: no buffer beyond MaxWindow
	InitialSendBuffer int64 `json:"initial_send_buffer"`
	// 1: the sender is BBR in startup (bbr.go): it paces, and grows its window its own way
	BBR int64 `json:"bbr"`
}

// windowState is one direction of one connection: it lives on the stub, so the window and the
// data it holds back survive the toxics around it being changed.
type windowState struct {
	cwnd        int64
	rwnd        int64
	sndbuf      int64
	flights     []flight // released, not yet acknowledged, in release order
	inFlight    int64
	held        []*stream.StreamChunk
	heldBytes   int64
	sent        int64 // bytes released so far: the sequence number of the next byte
	acked       int64
	lastRelease time.Time
	clock       time.Time // how far the window has been played: releases never go back in time
	// Linux's tcp_cwnd_validate: the most in flight during the current window, and whether the
	// window was the limit; growth needs one of them
	maxInFlight int64
	usageSeq    int64
	cwndLimited bool
	// the retransmission timeout's variance, and where the window that next shortens it ends
	rttVar time.Duration
	rttSeq int64
	pace   pacing // BBR's (bbr.go)
	// the application found its buffer full: Linux wakes it again only once the free space is
	// half what is queued, in flight or not sent yet (sk_stream_write_space); woken, it fills
	// the buffer again, and what it wrote then the pacer may still hold (unsent)
	blocked bool
	unsent  int64
}

// writeGap: chunks that arrive closer together than this are one write of the application.
const writeGap = 2 * time.Millisecond

type flight struct {
	ackAt time.Time
	bytes int64
	rate  rateStamp
}

func (t *TCPWindowToxic) NewState() interface{} {
	return new(windowState)
}

// GetBufferSize is small: the toxic holds what it cannot send yet itself, up to MaxWindow
// bytes, then stops reading, so the client blocks as it would on a full send buffer.
func (t *TCPWindowToxic) GetBufferSize() int {
	return 4
}

func (t *TCPWindowToxic) rtt() time.Duration {
	return time.Duration(t.RTT) * time.Microsecond
}

func (t *TCPWindowToxic) Pipe(stub *toxics.ToxicStub) {
	s := stub.State.(*windowState)
	if s.cwnd == 0 {
		s.cwnd = t.InitialWindow
		s.rttVar = t.rtoMin()
		if 2*t.rtt() > s.rttVar {
			s.rttVar = 2 * t.rtt() // the handshake's sample, the first
		}
		s.rwnd = t.InitialReceiveWindow
		if s.rwnd <= 0 {
			s.rwnd = t.MaxWindow
		}
		s.sndbuf = t.InitialSendBuffer
		if s.sndbuf <= 0 {
			s.sndbuf = t.MaxWindow
		}
		if t.bbr() {
			t.startPacing(&s.pace)
		}
	}
	for {
		if s.heldBytes > 0 {
			// window full: the next acknowledgement opens it; else the pacer holds the data
			next, acked := s.pace.next, false
			if len(s.flights) > 0 && ((s.blocked && s.unsent == 0) || s.inFlight >= t.window(s) ||
				!s.flights[0].ackAt.After(next)) {
				next, acked = s.flights[0].ackAt, true
			}
			if !waitUntil(next, stub.Interrupt) {
				return // held data stays on the stub; Cleanup passes it on if this toxic goes
			}
			if !t.releaseAt(stub, s, next, acked) {
				return
			}
			continue
		}
		select {
		case <-stub.Interrupt:
			return
		case c := <-stub.Input:
			if c == nil {
				stub.Close()
				return
			}
			// a write that comes after a gap (Toxiproxy reads on as the toxic takes chunks,
			// so a gap is the application's): the one before was all it had
			if c.Timestamp.Sub(s.clock) > writeGap {
				s.blocked, s.unsent = false, 0
			}
			s.held = append(s.held, c)
			s.heldBytes += int64(len(c.Data))
			// data that came while the window was full goes when it opened, not before
			if !t.releaseAt(stub, s, later(c.Timestamp, s.clock), false) {
				return
			}
		}
	}
}

// Cleanup passes on what the window held back when the toxic is removed: nothing is dropped.
func (t *TCPWindowToxic) Cleanup(stub *toxics.ToxicStub) {
	s := stub.State.(*windowState)
	for _, c := range s.held {
		stub.Output <- c
	}
	s.held, s.heldBytes = nil, 0
}

// releaseAt acknowledges what was acknowledged by now, then releases as much held data as the
// window allows, stamped now; false if interrupted while passing a chunk on. waited: the data
// waited for these acknowledgements, so on a real path it left as they came in, each filling
// the window again (ACK clocking): the window was the limit even if it all fits now.
func (t *TCPWindowToxic) releaseAt(stub *toxics.ToxicStub, s *windowState, now time.Time,
	waited bool) bool {
	s.clock = now
	// the application has written more than the toxic holds: Toxiproxy has read it already
	t.acknowledge(s, now, len(stub.Input) > 0)
	if s.inFlight == 0 && !s.lastRelease.IsZero() && t.SlowStartAfterIdle != 0 {
		t.restartAfterIdle(s, now.Sub(s.lastRelease))
	}
	if queued := s.inFlight + s.unsent; s.blocked && s.sndbuf-queued >= queued/2 {
		s.unsent = s.sndbuf - s.inFlight // woken, it fills the buffer again
	}
	released := false
	window := t.window(s)
	for len(s.held) > 0 && (!s.blocked || s.unsent > 0) && s.inFlight < window &&
		t.paced(&s.pace, now) {
		c := s.held[0]
		n := int64(len(c.Data))
		room := min64(window-s.inFlight, t.burst(&s.pace, n))
		if s.blocked {
			room = min64(room, s.unsent)
		}
		if n > room {
			// send what fits now, the rest when the window opens
			out := &stream.StreamChunk{Data: c.Data[:room], Timestamp: c.Timestamp}
			c.Data = c.Data[room:]
			c = out
			n = room
		} else {
			s.held = s.held[1:]
		}
		s.heldBytes -= n
		c.Timestamp = later(c.Timestamp, now)
		rate := t.sent(&s.pace, n, now, s.inFlight)
		s.flights = append(s.flights, flight{ackAt: now.Add(t.rtt()), bytes: n, rate: rate})
		s.inFlight += n
		s.sent += n
		if s.blocked {
			s.unsent -= n
		}
		released = true
		select {
		case stub.Output <- c:
		case <-stub.Interrupt:
			stub.Output <- c // pass it on, drop nothing; the rest stays held
			return false
		}
	}
	// only a paced flight's acknowledgements come back spread out enough for the application
	// to wake before most have come: an unpaced one's come together, and the kernel's Reno
	// refilled its whole 4 MB buffer every round of a 60 MB COPY at 320 ms
	if s.heldBytes > 0 && s.inFlight >= s.sndbuf && t.bbr() {
		s.blocked = true
	}
	if released {
		s.lastRelease = now
		// cwnd-limited only where the congestion window, not the receiver or the cap, held data
		t.validate(s, (s.heldBytes > 0 || waited) && s.cwnd <= t.window(s))
	}
	return true
}

// window is what may be in flight: the congestion window, the receiver's, the sender's buffer
// and the cap, whichever is least.
func (t *TCPWindowToxic) window(s *windowState) int64 {
	return min64(min64(s.cwnd, s.rwnd), min64(s.sndbuf, t.MaxWindow))
}

// acknowledge retires the flights acknowledged by now and grows the window by what they carried.
//
// more: the application has written more than the held data (the toxic reads no further
// while it holds any), so it waits on the buffer whenever the toxic holds anything.
func (t *TCPWindowToxic) acknowledge(s *windowState, now time.Time, more bool) {
	for len(s.flights) > 0 && !s.flights[0].ackAt.After(now) {
		f := s.flights[0]
		// the application waits on the send buffer: it had more, when this acknowledgement
		// came, than the buffer had room for
		held := heldAt(s, f.ackAt)
		waiting := held > s.sndbuf-s.inFlight || (held > 0 && more)
		before, filled := s.cwnd, min64(s.sndbuf, s.rwnd)
		s.flights = s.flights[1:]
		s.inFlight -= f.bytes
		s.acked += f.bytes
		s.rwnd = min64(s.rwnd+2*t.fullSegments(f.bytes), t.MaxWindow)
		if s.acked >= s.rttSeq { // a window of data acknowledged: samples of the same RTT
			s.rttVar -= (s.rttVar - t.rtoMin()) / 4
			s.rttSeq = s.sent
		}
		// Linux grows it ack by ack while the window was full, or up to twice what was in
		// flight while it was not; BBR its own way
		if t.bbr() {
			s.cwnd = t.acknowledged(&s.pace, f.rate, f.ackAt, s.cwnd)
		} else if s.cwndLimited {
			s.cwnd += f.bytes
		} else if s.cwnd < 2*s.maxInFlight {
			s.cwnd = min64(s.cwnd+f.bytes, 2*s.maxInFlight)
		}
		// Linux's tcp_new_space: the window has room that what the buffer holds cannot fill.
		// Linux looks every other segment, so the window it doubles is the one that just
		// passed what the buffer fills, however much this flight carried. Or the window has
		// room the pacer holds data back from (BBR's): the buffer grows to hold the window.
		if waiting && s.cwnd > filled && s.sndbuf < t.MaxWindow {
			s.sndbuf = min64(t.sendBufferFactor()*max64(before, filled), t.MaxWindow)
		} else if waiting && t.bbr() && s.pace.next.After(f.ackAt) {
			s.sndbuf = min64(max64(s.sndbuf, t.sendBufferFactor()*s.cwnd), t.MaxWindow)
		}
	}
}

// heldAt is what of the held data had come by `at` (held chunks keep their arrival time).
func heldAt(s *windowState, at time.Time) int64 {
	var n int64
	for _, c := range s.held {
		if !c.Timestamp.After(at) {
			n += int64(len(c.Data))
		}
	}
	return n
}

// fullSegments is the part of n bytes that fills whole segments: a receiver grows its window
// only for those (a short request leaves it where it was).
func (t *TCPWindowToxic) fullSegments(n int64) int64 {
	if t.MSS <= 0 {
		return n
	}
	return n / t.MSS * t.MSS
}

// validate is the part of Linux's tcp_cwnd_validate that growth reads: per window of data, the
// most that was in flight and whether the window was what held data back.
func (t *TCPWindowToxic) validate(s *windowState, limited bool) {
	if s.acked >= s.usageSeq || limited || (!s.cwndLimited && s.inFlight > s.maxInFlight) {
		s.cwndLimited = limited
		s.maxInFlight = s.inFlight
		s.usageSeq = s.sent
	}
}

func (t *TCPWindowToxic) rto(s *windowState) time.Duration {
	return t.rtt() + s.rttVar
}

func (t *TCPWindowToxic) rtoMin() time.Duration {
	return time.Duration(t.RTOMin) * time.Microsecond
}

// restartAfterIdle is Linux's tcp_cwnd_restart, for an idle longer than the retransmission
// timeout: the window halves for every timeout idle, but not below the initial window.
func (t *TCPWindowToxic) restartAfterIdle(s *windowState, idle time.Duration) {
	rto := t.rto(s)
	if idle <= rto {
		return
	}
	restart := min64(t.InitialWindow, s.cwnd)
	for idle -= rto; idle > 0 && s.cwnd > restart; idle -= rto {
		s.cwnd >>= 1
	}
	if s.cwnd < restart {
		s.cwnd = restart
	}
}

func later(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func min64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}
