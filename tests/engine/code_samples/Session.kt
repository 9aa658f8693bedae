// The session of one signed-in user.
package com.example.auth

import java.time.Instant

/**
 * A user's session, valid until it expires.
 */
data class Session(val user: String, val expires: Instant) {
    /** Whether the session has expired at [now]. */
    fun isExpired(now: Instant): Boolean = now.isAfter(expires)
}

/** Opens a session for a user. */
fun open(user: String): Session = Session(user, Instant.now())

interface Store { fun save(s: Session) }

object Sessions {
    fun count(): Int = 0
}
