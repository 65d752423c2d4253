import { Globe, Lock, Play, RefreshCw, Server, Square, Webhook } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';

import { Alert, AlertDescription } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { useToolAction } from '../api/tool-action.ts';
import { useScanner } from '../hooks/use-scanner.ts';
import { severityLabel } from '../lib/scan-status.ts';
import type { ScannerInfo } from '../lib/scanners.ts';
import { type ScanTargetOption, targetsFor } from '../lib/targets.ts';
import { ScanProgressView } from './scan-progress.tsx';
import { ScanStatusBadge } from './scan-status-badge.tsx';

const icons = { webapp: Globe, infrastructure: Server, api: Webhook };

interface Props {
  scanner: ScannerInfo;
  userId: string | undefined;
  targets: readonly ScanTargetOption[];
}

/** One scanner of the Security Automation page: its description, target, live progress, start and stop. */
export function ScannerCard({ scanner, userId, targets }: Props) {
  const Icon = icons[scanner.type];
  const titleId = useId();
  const selectId = useId();
  const { config, latest, initialized, access, locked, pending, active, initialize, start, stop } =
    useScanner(userId, scanner);
  const eligible = targetsFor(scanner, targets);
  const [chosen, setChosen] = useState<string>('');
  const targetId = eligible.some((t) => t.id === chosen) ? chosen : eligible[0]?.id;
  const scan = latest.data;
  const tool = useToolAction();

  return (
    <Card aria-labelledby={titleId} role="region" className="flex flex-col">
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <CardTitle id={titleId} className="flex items-center gap-2 text-lg">
            <Icon className="size-5 shrink-0 text-primary" aria-hidden />
            {scanner.name}
          </CardTitle>
          {userId && config.isSuccess && !locked ? (
            <Badge variant={initialized ? 'success' : 'outline'}>
              {initialized ? 'Initialized' : 'Not initialized'}
            </Badge>
          ) : null}
        </div>
        <CardDescription>{scanner.description}</CardDescription>
        <p className="text-xs text-muted-foreground">
          {scanner.requiresUrl ? 'Requires a URL' : 'Works with a host name or IP address'}
        </p>
      </CardHeader>
      <CardContent className="flex-1 space-y-4">
        {locked && access ? (
          <Alert variant="warning">
            <Lock aria-hidden />
            <AlertDescription className="space-y-2">
              {/* Not a heading: the card's title is the heading here. */}
              <p className="font-medium">Needs an active agent</p>
              <p>
                The {scanner.name} comes with the {access.agents.join(' or ')} agent. Activate one to run its
                scans.
              </p>
              <Button asChild size="sm">
                <Link to="/dashboard/agents">Activate an agent</Link>
              </Button>
            </AlertDescription>
          </Alert>
        ) : null}
        {!userId ? null : latest.isPending ? (
          <div className="space-y-2" data-testid="scan-skeleton">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-2 w-full" />
          </div>
        ) : (
          <>
            {eligible.length > 0 ? (
              <div className="space-y-1">
                <label htmlFor={selectId} className="text-sm font-medium">
                  Target
                </label>
                <NativeSelect
                  id={selectId}
                  value={targetId ?? ''}
                  onChange={(e) => setChosen(e.target.value)}
                  disabled={active}
                >
                  {eligible.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.value}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">Add and verify a target below to scan it.</p>
            )}
            {scan ? (
              <div className="space-y-2 text-sm" aria-live="polite">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-muted-foreground">Latest scan:</span>
                  <ScanStatusBadge status={scan.status} />
                  {scan.status === 'completed' ? (
                    <span>Severity: {severityLabel(scan.severity_level)}</span>
                  ) : null}
                </div>
                {active ? (
                  <ScanProgressView progress={scan.progress} label={`${scanner.name} progress`} />
                ) : null}
                {scan.status === 'failed' && scan.error_message ? (
                  <p className="text-destructive">{scan.error_message}</p>
                ) : null}
              </div>
            ) : null}
          </>
        )}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {!userId ? (
          <Button asChild className="w-full">
            <Link to="/auth">Sign In to Use</Link>
          </Button>
        ) : (
          <>
            {config.isSuccess && !initialized && !locked ? (
              <Button variant="outline" onClick={initialize} disabled={pending !== null}>
                Initialize
              </Button>
            ) : null}
            <Button
              onClick={() => start(targetId)}
              disabled={locked || active || pending !== null || !targetId}
            >
              <Play aria-hidden />
              {pending === 'start_scan' ? 'Starting…' : 'Start Scan'}
            </Button>
            <Button variant="outline" onClick={stop} disabled={!active || pending !== null}>
              <Square aria-hidden />
              {pending === 'stop_scan' ? 'Stopping…' : 'Stop Scan'}
            </Button>
            <Button
              variant="ghost"
              disabled={tool.isPending}
              onClick={() => tool.mutate({ userId, toolType: scanner.type, action: 'status' })}
            >
              <RefreshCw aria-hidden />
              Check Status
            </Button>
          </>
        )}
      </CardFooter>
    </Card>
  );
}
