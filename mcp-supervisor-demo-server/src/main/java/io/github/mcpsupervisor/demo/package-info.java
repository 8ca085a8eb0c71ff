/**
 * A small stdio MCP server whose tools make supervision visible: crashes, slow and hung
 * calls, tools added at run time.
 */
package io.github.mcpsupervisor.demo;
