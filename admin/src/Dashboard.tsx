import {
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  Link,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Title } from 'react-admin';
import { apiGet } from './data-provider';
import { ATTENTION_REASONS, attentionListHref, days, lastDays, percent } from './insights';
import { useWorkspace } from './useWorkspace';

type Counts = Partial<Record<(typeof ATTENTION_REASONS)[number]['code'], number>>;

interface PerformanceRow {
  carrier: string;
  destinationCountry: string | null;
  shipments: number;
  delivered: number;
  deliveryRate: number | null;
  transitDays: { p50: number | null; p90: number | null };
  pickupLatencyDays: { p50: number | null; p90: number | null };
  firstAttemptRate: number | null;
  exceptionRate: number | null;
  returnRate: number | null;
  onTimeRate: { prediction: number | null; carrier: number | null };
}

/**
 * What `load` answers, read again when `deps` change (null meanwhile); `failed` when it threw.
 * An answer that arrives after the next read started is dropped.
 */
function useLoaded<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
): { value: T | null; failed: boolean } {
  const [state, setState] = useState<{ value: T | null; failed: boolean }>({
    value: null,
    failed: false,
  });
  useEffect(() => {
    let live = true;
    setState({ value: null, failed: false });
    load().then(
      (value) => live && setState({ value, failed: false }),
      () => live && setState({ value: null, failed: true }),
    );
    return () => {
      live = false;
    };
    // `deps` are what `load` reads: a new `load` each render is not a new read.
  }, deps);
  return state;
}

/**
 * Parcels that need attention in the workspace, per reason: each count is the list's
 * `hydra:totalItems` (a maintained count in the API, no scan), linked to that list.
 */
const AttentionCard = ({ workspace }: { workspace: string }) => {
  const { value: counts, failed } = useLoaded(
    async (): Promise<Counts> =>
      Object.fromEntries(
        await Promise.all(
          ATTENTION_REASONS.map(async ({ code }) => {
            const json = await apiGet(`/workspaces/${workspace}/shipments`, {
              attention: code,
              itemsPerPage: '1',
            });
            return [code, Number(json['hydra:totalItems'] ?? 0)] as const;
          }),
        ),
      ),
    [workspace],
  );
  return (
    <Card component="section" aria-labelledby="attention-title">
      <CardContent>
        <Typography id="attention-title" variant="h6" component="h2" gutterBottom>
          Needs attention
        </Typography>
        {failed ? (
          <Typography>The counts could not be read.</Typography>
        ) : (
          <Stack component="ul" direction="row" spacing={4} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {ATTENTION_REASONS.map(({ code, label, hint }) => (
              <li key={code}>
                <Link
                  href={attentionListHref(code)}
                  underline="hover"
                  aria-describedby={`hint-${code}`}
                >
                  <Typography component="span" variant="h4" sx={{ display: 'block' }}>
                    {counts ? (counts[code] ?? 0) : '…'}
                  </Typography>
                  {label}
                </Link>
                <Typography id={`hint-${code}`} variant="body2" color="text.secondary">
                  {hint}
                </Typography>
              </li>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};

const RANGES = [30, 90, 365];

/** `GET /workspaces/{id}/carrier_performance` over the last N days, per carrier. */
const PerformanceCard = ({ workspace }: { workspace: string }) => {
  const [range, setRange] = useState(30);
  const [byDestination, setByDestination] = useState(false);
  const { value: rows, failed } = useLoaded(async () => {
    const params: Record<string, string> = lastDays(range, new Date());
    if (byDestination) params.groupBy = 'destination';
    const json = await apiGet(`/workspaces/${workspace}/carrier_performance`, params);
    return (json['hydra:member'] as PerformanceRow[] | undefined) ?? [];
  }, [workspace, range, byDestination]);
  return (
    <Card component="section" aria-labelledby="performance-title">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
          <Typography id="performance-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            Carrier performance
          </Typography>
          <TextField
            select
            size="small"
            label="Shipments created"
            value={range}
            onChange={(e) => setRange(Number(e.target.value))}
            sx={{ flex: '0 0 220px' }}
          >
            {RANGES.map((n) => (
              <MenuItem key={n} value={n}>
                Last {n} days
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={
              <Checkbox
                checked={byDestination}
                onChange={(e) => setByDestination(e.target.checked)}
              />
            }
            label="By destination"
          />
        </Stack>
        {failed ? (
          <Typography>Carrier performance could not be read.</Typography>
        ) : rows === null ? (
          <Typography>Loading…</Typography>
        ) : rows.length === 0 ? (
          <Typography>No shipments created in this range.</Typography>
        ) : (
          <Table size="small" aria-labelledby="performance-title">
            <TableHead>
              <TableRow>
                <TableCell>Carrier</TableCell>
                {byDestination && <TableCell>Destination</TableCell>}
                <TableCell align="right">Shipments</TableCell>
                <TableCell align="right">Delivered</TableCell>
                <TableCell align="right">Transit days p50 / p90</TableCell>
                <TableCell align="right">Days to first scan p50 / p90</TableCell>
                <TableCell align="right">First attempt</TableCell>
                <TableCell align="right">Exceptions</TableCell>
                <TableCell align="right">Returns</TableCell>
                <TableCell align="right">On time (our window)</TableCell>
                <TableCell align="right">On time (carrier date)</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={`${r.carrier}|${r.destinationCountry ?? ''}`}>
                  <TableCell component="th" scope="row">
                    {r.carrier}
                  </TableCell>
                  {byDestination && <TableCell>{r.destinationCountry}</TableCell>}
                  <TableCell align="right">{r.shipments}</TableCell>
                  <TableCell align="right">
                    {r.delivered} ({percent(r.deliveryRate)})
                  </TableCell>
                  <TableCell align="right">{days(r.transitDays)}</TableCell>
                  <TableCell align="right">{days(r.pickupLatencyDays)}</TableCell>
                  <TableCell align="right">{percent(r.firstAttemptRate)}</TableCell>
                  <TableCell align="right">{percent(r.exceptionRate)}</TableCell>
                  <TableCell align="right">{percent(r.returnRate)}</TableCell>
                  <TableCell align="right">{percent(r.onTimeRate.prediction)}</TableCell>
                  <TableCell align="right">{percent(r.onTimeRate.carrier)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
};

/**
 * The console's home page: what needs attention in the chosen workspace, and how its carriers
 * perform (the API's attention counts and carrier analytics, issue 26).
 */
export const Dashboard = () => {
  const workspace = useWorkspace();
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title="Overview" />
      {workspace ? (
        <>
          <AttentionCard workspace={workspace} />
          <PerformanceCard workspace={workspace} />
        </>
      ) : (
        <Typography>Choose a workspace in the app bar.</Typography>
      )}
    </Stack>
  );
};
