import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useState } from 'react';
import { useLogin } from 'react-admin';
import { signInError } from './sign-in-state';

/**
 * No password form here: signing in happens on the service's consent page
 * (/oauth/v2/auth), which sends the browser back with a code.
 */
export const LoginPage = () => {
  const login = useLogin();
  const [error, setError] = useState<string | null>(signInError());
  const [busy, setBusy] = useState(false);
  const start = () => {
    setBusy(true);
    login({}).catch((e: Error) => {
      setBusy(false);
      setError(e.message);
    });
  };
  return (
    <Box component="main" sx={{ display: 'flex', justifyContent: 'center', mt: 12 }}>
      <Card sx={{ maxWidth: 420 }}>
        <CardContent>
          <Typography component="h1" variant="h5" gutterBottom>
            Shipment tracking console
          </Typography>
          <Typography gutterBottom>
            Sign in with your account on this service to see and manage your workspaces.
          </Typography>
          {error && (
            <Typography role="alert" color="error" gutterBottom>
              {error}
            </Typography>
          )}
          <Button variant="contained" onClick={start} disabled={busy}>
            Sign in
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
};
