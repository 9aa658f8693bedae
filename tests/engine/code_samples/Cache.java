/*
 * Licensed under the Apache License, Version 2.0.
 */
package com.example.cache;

import java.util.Map;

/**
 * An in-memory cache that evicts the least recently used entries.
 */
public class Cache<K, V> {
    private final Map<K, V> entries;

    /** Creates a cache holding at most {@code capacity} entries. */
    public Cache(int capacity) {
        this.entries = new java.util.LinkedHashMap<>();
    }

    /**
     * Returns the cached value, or null when absent.
     */
    @Override
    public V get(K key) {
        return entries.get(key);
    }

    /** Returns the cached value, or {@code fallback} when absent. */
    public V get(K key, V fallback) {
        V value = entries.get(key);
        return value == null ? fallback : value;
    }

    public interface Loader<K, V> {
        V load(K key);
    }
}

enum Policy { LRU, LFU }
