package main

import (
	"math"
	"time"
)

// BBR as Linux's tcp_bbr.c runs it in startup, on a path that loses nothing. It differs from
// slow start in two ways that cost time on a warm connection (measured with `ss -tin` on the
// kernel's own BBR over a 320 ms delay line):
//
//   - It paces: bursts leave at a rate, gain x the best delivery rate measured so far, at
//     first gain x the initial window per RTT, and never slower while in startup
//     (bbr_set_pacing_rate). A new socket at 320 ms paced at 1.03 Mbit/s, so a warm 14 kB
//     reply took 1.3 RTTs, not one. The first 10 data segments of a connection leave unpaced,
//     and so does the first burst after an idle (tcp_update_skb_after_send's credit).
//   - Its window grows by every segment acknowledged while under gain x the best rate x the
//     RTT, whether the window was full or not (bbr_set_cwnd), and never shrinks after an idle.
//
// Its sender's buffer grows to three times the window, not two (bbr_sndbuf_expand), from three
// times the initial window at connect: a warm 78 kB reply goes in one flight, not two.
//
// Startup ends once the delivery rate stops growing by a quarter for three rounds in a row
// while the sender is not application-limited; here only a transfer held at the cap for
// rounds would get there, and the model stays in startup (the 60 MB cells of link-check).
const (
	// startup's pacing and window gain, 2/ln 2 in BBR_UNIT fixed point: 2.89
	bbrHighGain = 739.0 / 256
	// bbr_pacing_margin_percent: pace 1% under the rate
	bbrPacingMargin = 0.99
	// tcp_update_skb_after_send paces from a connection's 10th data segment on
	unpacedSegments = 10
	// segments: bbr_set_cwnd grows the window whatever its target until this many are delivered
	tcpInitCwnd = 10
	// bytes/s (bbr_min_tso_rate, 1.2 Mbit/s): slower, a burst is one segment, else two
	bbrMinTSORate = 150_000
	// the largest burst (sk_gso_max_size)
	gsoMaxSize = 65_536
)

// pacing is one direction's BBR state: the rate it paces at and the delivery it measures.
type pacing struct {
	bw          float64   // bytes/s: the best delivery rate measured (BBR's max filter, not aged)
	rate        float64   // bytes/s (sk_pacing_rate)
	next        time.Time // when the next burst may leave (tcp_wstamp_ns)
	segsOut     int64     // data segments sent (tp->data_segs_out)
	delivered   int64     // segments acknowledged (tp->delivered)
	deliveredAt time.Time // when the last acknowledgement came (tp->delivered_mstamp)
	firstTx     time.Time // when the last burst acknowledged left (tp->first_tx_mstamp)
}

// rateStamp is what a burst remembers of the delivery when it left (Linux's tcp_skb_cb.tx), to
// measure the delivery rate when it is acknowledged (tcp_rate_gen).
type rateStamp struct {
	sentAt      time.Time
	segs        int64
	delivered   int64
	deliveredAt time.Time
	firstTx     time.Time
}

func (t *TCPWindowToxic) bbr() bool {
	return t.BBR != 0
}

// startPacing is bbr_init_pacing_rate_from_rtt: gain x the initial window per handshake RTT.
func (t *TCPWindowToxic) startPacing(p *pacing) {
	p.rate = bbrHighGain * bbrPacingMargin * float64(t.InitialWindow) / t.rtt().Seconds()
}

// pacing: the sender paces, having sent its first 10 segments.
func (t *TCPWindowToxic) pacing(p *pacing) bool {
	return t.bbr() && p.segsOut >= unpacedSegments
}

// paced: a burst may leave at now; false while the pacer holds it (until p.next).
func (t *TCPWindowToxic) paced(p *pacing, now time.Time) bool {
	return !t.pacing(p) || !p.next.After(now)
}

// burst is how much of n bytes leaves at once: all of it where nothing paces, else a TSO burst.
func (t *TCPWindowToxic) burst(p *pacing, n int64) int64 {
	if !t.pacing(p) || t.MSS <= 0 {
		return n
	}
	return min64(n, t.burstSegments(p)*t.MSS)
}

// burstSegments is Linux's TSO autosizing (tcp_tso_autosize): about a millisecond at the pacing
// rate, more on a path under 16 ms, at least one segment (two from 1.2 Mbit/s), at most 64 kB.
func (t *TCPWindowToxic) burstSegments(p *pacing) int64 {
	bytes := int64(p.rate) >> 10
	if r := t.RTT >> 9; r < 32 {
		bytes += gsoMaxSize >> r
	}
	segs := max64(min64(bytes, gsoMaxSize)/max64(t.MSS, 1), 1)
	if p.rate >= bbrMinTSORate {
		segs = max64(segs, 2)
	}
	return segs
}

// sent books a burst of n bytes that left at `at` and returns its stamp: the pacer's next
// departure is n bytes at the rate later, less what an idle pacer had in credit
// (tcp_update_skb_after_send), once the connection has sent its first 10 segments.
func (t *TCPWindowToxic) sent(p *pacing, n int64, at time.Time, inFlight int64) rateStamp {
	if inFlight == 0 { // tcp_rate_skb_sent: a sender that had nothing in flight starts afresh
		p.firstTx, p.deliveredAt = at, at
	}
	stamp := rateStamp{sentAt: at, segs: t.segments(n), delivered: p.delivered,
		deliveredAt: p.deliveredAt, firstTx: p.firstTx}
	prior := p.next
	p.next = later(p.next, at)
	p.segsOut += stamp.segs
	if t.pacing(p) {
		length := time.Duration(float64(n) / p.rate * float64(time.Second))
		credit := p.next.Sub(prior)
		if prior.IsZero() || credit > length {
			credit = length
		}
		p.next = p.next.Add(length - credit)
	}
	return stamp
}

// acknowledged is BBR's answer to a burst's acknowledgement at `at`: a delivery rate sample
// (tcp_rate_gen: segments delivered since the burst left, over the longer of its send and ack
// intervals, none shorter than the RTT), the best of which sets the pacing rate; and the
// window's growth (bbr_set_cwnd). Returns the window.
func (t *TCPWindowToxic) acknowledged(p *pacing, f rateStamp, at time.Time, cwnd int64) int64 {
	p.delivered += f.segs
	p.deliveredAt, p.firstTx = at, f.sentAt
	interval := at.Sub(f.deliveredAt)
	if send := f.sentAt.Sub(f.firstTx); send > interval {
		interval = send
	}
	if interval >= t.rtt() {
		bw := float64((p.delivered-f.delivered)*t.MSS) / interval.Seconds()
		if bw > p.bw {
			p.bw = bw
			p.rate = math.Max(p.rate, bbrHighGain*bbrPacingMargin*bw)
		}
	}
	// bbr_inflight: gain x the bandwidth-delay product plus three bursts (quantization budget)
	target := int64(bbrHighGain*p.bw*t.rtt().Seconds()) + 3*t.burstSegments(p)*t.MSS
	if cwnd < target || p.delivered < tcpInitCwnd {
		cwnd += f.segs * t.MSS
	}
	return cwnd
}

// sendBufferFactor is how many windows the sender's buffer grows to hold (tcp_sndbuf_expand).
func (t *TCPWindowToxic) sendBufferFactor() int64 {
	if t.bbr() {
		return 3
	}
	return 2
}

// segments is how many segments n bytes take.
func (t *TCPWindowToxic) segments(n int64) int64 {
	if t.MSS <= 0 {
		return 1
	}
	return (n + t.MSS - 1) / t.MSS
}
