/** Per-tool cap on runs in flight in this instance (a bulkhead: one tool cannot hold every worker). */
export class ToolInFlight {
  private readonly counts = new Map<string, number>();

  tryAcquire(toolId: string, max: number): boolean {
    const n = this.counts.get(toolId) ?? 0;
    if (n >= max) return false;
    this.counts.set(toolId, n + 1);
    return true;
  }

  release(toolId: string): void {
    this.counts.set(toolId, Math.max(0, (this.counts.get(toolId) ?? 1) - 1));
  }

  get(toolId: string): number {
    return this.counts.get(toolId) ?? 0;
  }
}
