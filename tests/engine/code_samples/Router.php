<?php

/**
 * Routes requests to their controllers.
 */

namespace App\Http;

use App\Controller;

/**
 * Matches a request path against the registered routes.
 */
class Router
{
    /** Register a route for a path. */
    public function add(string $path, callable $handler): void
    {
        $this->routes[$path] = $handler;
    }
}

function helper($x) { return $x; }

interface Matcher { public function matches(string $path): bool; }
