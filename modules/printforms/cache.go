package printforms

import (
	"container/list"
	"strings"
	"sync"
)

// Cache keeps recently rendered PDFs by version key, least recently used
// out first, within a number of entries and a number of bytes. Keys are
// copied: a caller may pass a string that points into a request's buffers.
type Cache struct {
	mu       sync.Mutex
	maxItems int
	maxBytes int
	bytes    int
	order    *list.List // front: most recently used
	items    map[string]*list.Element
}

type cached struct {
	key  string
	body []byte
}

// NewCache returns a cache of at most maxItems PDFs and maxBytes bytes; a
// zero bound keeps nothing.
func NewCache(maxItems, maxBytes int) *Cache {
	return &Cache{maxItems: maxItems, maxBytes: maxBytes, order: list.New(), items: map[string]*list.Element{}}
}

// Get returns the PDF kept under key. The bytes are shared: never change
// them.
func (c *Cache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).body, true
}

// Put keeps body under key, dropping the least recently used PDFs to stay
// within the bounds. A PDF larger than the byte bound is not kept.
func (c *Cache) Put(key string, body []byte) {
	if c.maxItems <= 0 || len(body) > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.bytes += len(body) - len(e.Value.(*cached).body)
		e.Value.(*cached).body = body
		c.order.MoveToFront(e)
	} else {
		key = strings.Clone(key)
		c.items[key] = c.order.PushFront(&cached{key: key, body: body})
		c.bytes += len(body)
	}
	for c.order.Len() > c.maxItems || c.bytes > c.maxBytes {
		last := c.order.Back()
		v := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.items, v.key)
		c.bytes -= len(v.body)
	}
}

// Len is the number of PDFs kept and their bytes.
func (c *Cache) Len() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.bytes
}
