import { Global, Injectable, Module } from '@nestjs/common';
import type { QueueJob } from './job-queue';

/**
 * Every task the `maintenance` queue runs. Each is registered at start by the module that owns it;
 * a process that consumes the queue with one left unregistered fails its start.
 */
export const MAINTENANCE_TASKS = [
  'purge-activity-logs',
  'write-log-entry',
  'purge-audit-entries',
  'purge-idempotency-keys',
  'rebuild-routing',
] as const;
export type MaintenanceTaskName = (typeof MAINTENANCE_TASKS)[number];

/** Data of a `maintenance` job: the task, and what that task reads (its own fields). */
export interface MaintenanceJobData {
  task: MaintenanceTaskName;
  /** The `write-log-entry` task's entry (as the activity log stores it, its timestamp as ISO text). */
  entry?: Record<string, unknown>;
}

/** A periodic task's schedule: one Bull repeatable job, the same from every process. */
export interface MaintenanceSchedule {
  /** Fixed, so every process that starts adds the same schedule (one run, not one per process). */
  jobId: string;
  repeat: { every: number } | { cron: string; tz: 'UTC' };
}

export interface MaintenanceTask {
  /** Runs one job of the task; a rejection fails the attempt (retried per the job's options). */
  run(data: MaintenanceJobData, job: QueueJob<MaintenanceJobData>): Promise<unknown>;
  /** Set for a periodic task. */
  schedule?: MaintenanceSchedule;
}

/**
 * The tasks of the one `maintenance` processor. The modules that own them (the activity log, the
 * audit trail, idempotency) sit above the queue, which must not know them: each registers its
 * task at start (its `onModuleInit`), the pattern of `SecretUsage`.
 */
@Injectable()
export class MaintenanceTasks {
  private readonly tasks = new Map<MaintenanceTaskName, MaintenanceTask>();

  /** Registers the one handler of a task. */
  register(name: MaintenanceTaskName, task: MaintenanceTask): void {
    if (this.tasks.has(name)) throw new Error(`Maintenance task ${name} is registered twice`);
    this.tasks.set(name, task);
  }

  /** Throws unless every task has its handler. */
  assertEveryTask(): void {
    const missing = MAINTENANCE_TASKS.filter((name) => !this.tasks.has(name));
    if (missing.length)
      throw new Error(`No module registered the maintenance task(s): ${missing.join(', ')}`);
  }

  /** The periodic tasks and their schedules. */
  schedules(): [MaintenanceTaskName, MaintenanceSchedule][] {
    return [...this.tasks].flatMap(([name, task]) =>
      task.schedule ? [[name, task.schedule] as [MaintenanceTaskName, MaintenanceSchedule]] : [],
    );
  }

  run(data: MaintenanceJobData, job: QueueJob<MaintenanceJobData>): Promise<unknown> {
    const task = this.tasks.get(data.task);
    if (!task) throw new Error(`No module registered the maintenance task ${data.task}`);
    return task.run(data, job);
  }
}

/** The registry, one per process, for every module that owns a task (imported by the core module). */
@Global()
@Module({ providers: [MaintenanceTasks], exports: [MaintenanceTasks] })
export class MaintenanceTasksModule {}
