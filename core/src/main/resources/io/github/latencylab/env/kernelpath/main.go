// Command kernel-path is a TCP path whose RTT is a delay line and whose windows are the kernel's
// own TCP: a reference to check a model of TCP (slow start, congestion control, idle restart)
// against, on kernels without sch_netem (no tc netem).
//
// It creates two network namespaces of its own, a client and a server, each with a TUN device,
// and holds every packet between the two TUNs for half the RTT. It listens on a loopback port in
// the namespace it was started in; each connection there is relayed by a socket of the client
// namespace to a listener of the server namespace, which relays it to the target:
//
//	your client -> 127.0.0.1:port -> [client ns] ==delay line== [server ns] -> target
//
// so the middle leg runs between two kernel TCP endpoints whose sysctls are set from the flags.
// Nothing is named (no ip netns, no device in the root namespace): everything goes with the
// process, which ends with its parent (PR_SET_PDEATHSIG) and when its standard input ends.
// Linux, root (CAP_SYS_ADMIN and CAP_NET_ADMIN) and /dev/net/tun only.
//
// Standard input takes one command a line, each answered by one line:
//
//	rtt 320ms   the RTT of packets that arrive from now on (order is kept)  -> rtt 320ms
//	stats       packets passed and dropped, TUN drops, TCP retransmissions -> stats ...
//	tcp         each open middle-leg socket's TCP_INFO: cwnd, ssthresh, unacked -> tcp ...
//
// It prints a "describe" line (kernel, congestion control, tcp_wmem, tcp_rmem,
// slow_start_after_idle, MTU, RTT), then "ready 127.0.0.1:PORT".
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

type config struct {
	rtt                time.Duration
	target             string
	listen             string
	congestionControl  string
	slowStartAfterIdle bool
	queue              int
	txQueueLen         int
}

// running is a started path (path_linux.go).
type running interface {
	address() string
	describe() string
	stats() string
	tcp() string
}

// oneWay is half the RTT in nanoseconds, read by both directions of the line.
var oneWay int64

func main() {
	var c config
	flag.DurationVar(&c.rtt, "rtt", 20*time.Millisecond, "round-trip time of the delay line, e.g. 320ms")
	flag.StringVar(&c.target, "target", "", "host:port every connection is relayed to, e.g. 127.0.0.1:5432 (required)")
	flag.StringVar(&c.listen, "listen", "127.0.0.1:0", "where the path listens, in the namespace it was started in")
	flag.StringVar(&c.congestionControl, "congestion-control", "", "net.ipv4.tcp_congestion_control of both namespaces (empty: the new namespace's default)")
	flag.BoolVar(&c.slowStartAfterIdle, "slow-start-after-idle", true, "net.ipv4.tcp_slow_start_after_idle of both namespaces")
	flag.IntVar(&c.queue, "queue", 1<<16, "packets each direction of the line holds before it drops (and counts) one")
	// a TUN's default, 500, drops (silently but for tx_dropped) a burst the reader has not caught up with
	flag.IntVar(&c.txQueueLen, "txqueuelen", 10000, "packets a TUN device holds for the line before it drops (and counts: tun-drops) one")
	flag.Parse()
	if c.target == "" || flag.NArg() > 0 {
		fail("usage: kernel-path -target host:port [-rtt 20ms] [-congestion-control reno|bbr] [-slow-start-after-idle=false]")
	}
	if c.rtt < 0 || c.queue < 1 || c.txQueueLen < 1 {
		fail(fmt.Sprintf("-rtt %v, -queue %d, -txqueuelen %d: want an RTT of 0 or more and queues of 1 or more", c.rtt, c.queue, c.txQueueLen))
	}
	atomic.StoreInt64(&oneWay, int64(c.rtt/2))

	p, err := start(c)
	if err != nil {
		fail(err.Error())
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		exit(p, 0)
	}()
	fmt.Println("describe " + p.describe())
	fmt.Println("ready " + p.address())
	control(p)
	exit(p, 0) // standard input ended: our parent is done with us
}

// control answers the commands on standard input until it ends.
func control(p running) {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fields := strings.Fields(in.Text())
		switch {
		case len(fields) == 0:
		case fields[0] == "rtt" && len(fields) == 2:
			rtt, err := time.ParseDuration(fields[1])
			if err != nil || rtt < 0 {
				fmt.Printf("error rtt %q: want a duration of 0 or more, e.g. 320ms\n", fields[1])
				continue
			}
			atomic.StoreInt64(&oneWay, int64(rtt/2))
			fmt.Printf("rtt %v\n", rtt)
		case fields[0] == "stats" && len(fields) == 1:
			fmt.Println("stats " + p.stats())
		case fields[0] == "tcp" && len(fields) == 1:
			fmt.Println("tcp " + p.tcp())
		default:
			fmt.Printf("error %q: the commands are \"rtt <duration>\", \"stats\" and \"tcp\"\n", in.Text())
		}
	}
}

// exit says on standard error what the line dropped, if anything: a reference that lost
// packets must not pass for one that did not.
func exit(p running, code int) {
	if s := p.stats(); !strings.Contains(s, "drops 0 0 tun-drops 0 0") {
		fmt.Fprintln(os.Stderr, "kernel-path: stopped after "+s)
	}
	os.Exit(code)
}

func fail(message string) {
	fmt.Fprintln(os.Stderr, "kernel-path: "+message)
	os.Exit(1)
}
