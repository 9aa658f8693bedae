// Copyright 2020 The Authors. All rights reserved.
// Use of this source code is governed by a BSD-style license.

// Package server serves the search index over HTTP.
package server

import (
	"net/http"
)

// Server answers search requests.
type Server struct {
	addr string
}

// Handler is anything that can answer a request.
type Handler interface {
	Handle(r *http.Request) error
}

// Serve listens on the address and serves until the context ends.
func (s *Server) Serve() error {
	return http.ListenAndServe(s.addr, nil)
}

// New returns a server bound to addr.
func New(addr string) *Server {
	return &Server{addr: addr}
}

const DefaultAddr = ":8080"

var ErrClosed = errors.New("server closed")

func TestServe(t *testing.T) {
	s := New(":0")
	_ = s
}
