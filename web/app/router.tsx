import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { paths, routePatterns } from "../config/paths";
import { AppLayout } from "./app-layout";
import { RouteError } from "./route-error";
import HomeRoute from "./routes/home";

/** Each non-home route is its own lazy chunk (the admin panel never loads on public pages). */
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>): RouteObject["lazy"] => async () => ({
  Component: (await load()).default,
});

export const routes: RouteObject[] = [
  // The admin panel has its own header: no public navbar, footer or feedback button.
  { path: paths.admin, errorElement: <RouteError />, lazy: lazyPage(() => import("./routes/admin")) },
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.home, element: <HomeRoute /> },
      { path: routePatterns.listing, lazy: lazyPage(() => import("./routes/listing")) },
      { path: paths.signup, lazy: lazyPage(() => import("./routes/signup")) },
      { path: paths.profile, lazy: lazyPage(() => import("./routes/profile")) },
      { path: paths.favorites, lazy: lazyPage(() => import("./routes/favorites")) },
      { path: routePatterns.messages, lazy: lazyPage(() => import("./routes/messages")) },
      { path: paths.create, lazy: lazyPage(() => import("./routes/create")) },
      { path: routePatterns.edit, lazy: lazyPage(() => import("./routes/edit")) },
      { path: routePatterns.promote, lazy: lazyPage(() => import("./routes/promote")) },
      { path: paths.billing, lazy: lazyPage(() => import("./routes/billing")) },
      { path: paths.verification, lazy: lazyPage(() => import("./routes/verification")) },
      { path: paths.support, lazy: lazyPage(() => import("./routes/support")) },
      { path: paths.terms, lazy: lazyPage(() => import("./routes/terms")) },
      { path: "*", lazy: lazyPage(() => import("./routes/not-found")) },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
