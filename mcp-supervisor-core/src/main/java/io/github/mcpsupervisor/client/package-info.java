/**
 * The per-server client of supervised servers, for resources, prompts, completions,
 * subscriptions and roots across generations.
 */
@NullMarked
package io.github.mcpsupervisor.client;

import org.jspecify.annotations.NullMarked;
