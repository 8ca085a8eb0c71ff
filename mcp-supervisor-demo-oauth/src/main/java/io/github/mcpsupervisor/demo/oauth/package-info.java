/**
 * Demo OAuth servers on loopback: a Spring Authorization Server that rotates refresh
 * tokens, and an MCP server that its tokens protect, for the tests, the sample
 * application and the benchmarks.
 */
@NullMarked
package io.github.mcpsupervisor.demo.oauth;

import org.jspecify.annotations.NullMarked;
