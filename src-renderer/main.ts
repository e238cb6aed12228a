import { mount } from 'svelte';
import 'uplot/dist/uPlot.min.css';
import './styles/app.css';
import App from './App.svelte';
import { prefetchSession } from './lib/prefetch';

// Opened on a session: its data is asked for first and travels while the app mounts.
void prefetchSession(location.hash).finally(() => mount(App, { target: document.getElementById('app')! }));
