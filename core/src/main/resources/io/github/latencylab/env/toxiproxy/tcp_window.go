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
//	 "max_window": 3145728, "rto_min": 200000, "slow_start_after_idle": 1}}
//
// A byte released at t is acknowledged at t + RTT. The window starts at InitialWindow (RFC 6928:
// 10 segments), grows by every byte acknowledged while the sender uses it (slow start, as Linux
// does it: only while cwnd-limited, or under twice what was in flight), and never passes
// MaxWindow (what the path's socket buffers let be in flight). With SlowStartAfterIdle, a sender
// that had nothing in flight for longer than the retransmission timeout (RTT + RTOMin, Linux's
// estimate once the RTT is steady) halves its window for each timeout idle, down to the initial
// window (RFC 2861; Linux's tcp_cwnd_restart); and a window the sender keeps in use without
// filling it for a timeout shrinks halfway to what it used (RFC 2861's slow part, Linux's
// tcp_cwnd_application_limited). Nothing is lost, so slow start never ends below the cap: no
// congestion avoidance.
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
	// grows to twice what arrived in the last RTT (receive buffer autotuning), never shrinks
	InitialReceiveWindow int64 `json:"initial_receive_window"`
}

// windowState is one direction of one connection: it lives on the stub, so the window and the
// data it holds back survive the toxics around it being changed.
type windowState struct {
	cwnd        int64
	rwnd        int64
	recentAcks  []flight // acknowledged within the last RTT, for the receive window
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
	// RFC 2861's slow part (Linux's tcp_cwnd_application_limited): when the window was last
	// full or cut, and the most in flight since, for a sender that does not fill it
	cwndStamp time.Time
	cwndUsed  int64
}

type flight struct {
	ackAt time.Time
	bytes int64
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
		s.cwnd = min64(t.InitialWindow, t.MaxWindow)
		s.rwnd = t.InitialReceiveWindow
		if s.rwnd <= 0 {
			s.rwnd = t.MaxWindow
		}
	}
	for {
		if s.heldBytes > 0 {
			// window full: the next acknowledgement opens it
			if !waitUntil(s.flights[0].ackAt, stub.Interrupt) {
				return // held data stays on the stub; Cleanup passes it on if this toxic goes
			}
			if !t.releaseAt(stub, s, s.flights[0].ackAt) {
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
			s.held = append(s.held, c)
			s.heldBytes += int64(len(c.Data))
			// data that came while the window was full goes when it opened, not before
			if !t.releaseAt(stub, s, later(c.Timestamp, s.clock)) {
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
// window allows, stamped now; false if interrupted while passing a chunk on.
func (t *TCPWindowToxic) releaseAt(stub *toxics.ToxicStub, s *windowState, now time.Time) bool {
	s.clock = now
	t.acknowledge(s, now)
	if s.inFlight == 0 && !s.lastRelease.IsZero() && t.SlowStartAfterIdle != 0 {
		t.restartAfterIdle(s, now.Sub(s.lastRelease))
	}
	released := false
	window := min64(s.cwnd, s.rwnd)
	for len(s.held) > 0 && s.inFlight < window {
		c := s.held[0]
		n := int64(len(c.Data))
		if room := window - s.inFlight; n > room {
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
		s.flights = append(s.flights, flight{ackAt: now.Add(t.rtt()), bytes: n})
		s.inFlight += n
		s.sent += n
		released = true
		select {
		case stub.Output <- c:
		case <-stub.Interrupt:
			stub.Output <- c // pass it on, drop nothing; the rest stays held
			return false
		}
	}
	if released {
		s.lastRelease = now
		t.validate(s, s.heldBytes > 0, now)
	}
	return true
}

// acknowledge retires the flights acknowledged by now and grows the window by what they carried.
func (t *TCPWindowToxic) acknowledge(s *windowState, now time.Time) {
	for len(s.flights) > 0 && !s.flights[0].ackAt.After(now) {
		f := s.flights[0]
		s.flights = s.flights[1:]
		s.inFlight -= f.bytes
		s.acked += f.bytes
		t.receiverGrows(s, f)
		// Linux grows it ack by ack while the window was full, or up to twice what was in
		// flight while it was not
		if s.cwndLimited {
			s.cwnd = min64(s.cwnd+f.bytes, t.MaxWindow)
		} else if s.cwnd < 2*s.maxInFlight {
			s.cwnd = min64(min64(s.cwnd+f.bytes, 2*s.maxInFlight), t.MaxWindow)
		}
	}
}

// receiverGrows opens the receive window to twice what arrived within the last RTT, as Linux's
// receiver does while data streams in (rcv_ssthresh and receive buffer autotuning).
func (t *TCPWindowToxic) receiverGrows(s *windowState, acked flight) {
	s.recentAcks = append(s.recentAcks, acked)
	var recent int64
	kept := s.recentAcks[:0]
	for _, f := range s.recentAcks {
		if acked.ackAt.Sub(f.ackAt) < t.rtt() {
			kept = append(kept, f)
			recent += f.bytes
		}
	}
	s.recentAcks = kept
	s.rwnd = max64(s.rwnd, min64(2*recent, t.MaxWindow))
}

// validate is Linux's tcp_cwnd_validate: remember, per window of data, the most that was in
// flight and whether the window was what held data back; and (with SlowStartAfterIdle, as
// Linux ties it to tcp_slow_start_after_idle) let a window the sender has not filled for a
// retransmission timeout shrink halfway to what it used (RFC 2861).
func (t *TCPWindowToxic) validate(s *windowState, limited bool, now time.Time) {
	if s.acked >= s.usageSeq || limited || (!s.cwndLimited && s.inFlight > s.maxInFlight) {
		s.cwndLimited = limited
		s.maxInFlight = s.inFlight
		s.usageSeq = s.sent
	}
	if s.cwndStamp.IsZero() || limited || s.cwnd < 2*s.maxInFlight {
		s.cwndUsed = 0
		s.cwndStamp = now
		return
	}
	if s.inFlight > s.cwndUsed {
		s.cwndUsed = s.inFlight
	}
	if t.SlowStartAfterIdle != 0 && now.Sub(s.cwndStamp) >= t.rto() {
		if used := max64(s.cwndUsed, min64(t.InitialWindow, t.MaxWindow)); used < s.cwnd {
			s.cwnd = (s.cwnd + used) / 2
		}
		s.cwndUsed = 0
		s.cwndStamp = now
	}
}

func (t *TCPWindowToxic) rto() time.Duration {
	return t.rtt() + time.Duration(t.RTOMin)*time.Microsecond
}

// restartAfterIdle is Linux's tcp_cwnd_restart: the window halves for every retransmission
// timeout the sender was idle, but not below the initial window.
func (t *TCPWindowToxic) restartAfterIdle(s *windowState, idle time.Duration) {
	rto := t.rto()
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
