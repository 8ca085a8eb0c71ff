/**
 * How each generation's SDK client is built and kept: the client factory, the per-server
 * session (roots, subscriptions, sampling gate) that outlives generations, list-change
 * handling, paging.
 * <p>
 * Not API: may change in any release (a second protocol revision brings a different SDK
 * client).
 */
@NullMarked
package io.github.mcpsupervisor.client.internal;

import org.jspecify.annotations.NullMarked;
