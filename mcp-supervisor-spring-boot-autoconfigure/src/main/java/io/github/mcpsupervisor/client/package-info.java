/**
 * The clients of supervised servers: how each generation's SDK client is built, and the
 * per-server client for resources, prompts, completions, subscriptions and roots.
 */
@NullMarked
package io.github.mcpsupervisor.client;

import org.jspecify.annotations.NullMarked;
