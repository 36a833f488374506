import '@/entrypoints/shared/zod-setup';
import { createRoot } from 'react-dom/client';
import { SidePanelApp } from './side-panel-app';

createRoot(document.getElementById('root')!).render(<SidePanelApp />);
