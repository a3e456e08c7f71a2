package httpserver

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
)

const clientIPKey = "propman.clientip"

func parseProxies(list []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("http.proxies: %q is neither an IP address nor a CIDR range", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// settleClientIP is the client's address. X-Forwarded-For is read only
// when the socket peer is a configured proxy, and then from the right: the
// first address that is not a proxy is the client, so a client cannot
// choose its own address by sending the header.
func settleClientIP(c *fiber.Ctx, proxies []netip.Prefix) netip.Addr {
	trusted := func(a netip.Addr) bool {
		for _, p := range proxies {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	ip := peerAddr(c)
	if !trusted(ip) {
		return ip
	}
	hops := strings.Split(c.Get(fiber.HeaderXForwardedFor), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		ip = a.Unmap()
		if !trusted(ip) {
			break
		}
	}
	return ip
}

func peerAddr(c *fiber.Ctx) netip.Addr {
	if lc, ok := c.Context().Conn().(*lingerConn); ok {
		return lc.peer()
	}
	peer, _ := netip.AddrFromSlice(c.Context().RemoteIP())
	return peer.Unmap()
}

// ClientIP is the client's address as the chain settled it: the socket peer
// when no proxy is configured.
func ClientIP(c *fiber.Ctx) string {
	if ip, ok := c.Locals(clientIPKey).(string); ok {
		return ip
	}
	return peerAddr(c).String()
}
