"""The ``net`` play policy's weights, one row per rules label (``net.ROW_LABELS``), one column per
weight (``net.N_WEIGHTS``: each feature of ``net.FEATURES`` in each setting of ``net.setting``).
Written by ``belote learn`` (``analyzer.runs.learn``); numba reads them as constants of the compiled policy. ``PROVENANCE``: how each row was trained and validated.

A row of zeros but the first (the heuristic's card) is the heuristic itself: the rows not trained yet.
"""

import numpy as np

from analyzer.players.net import N_WEIGHTS, ROW_LABELS

KERNEL_DATA = True  # numba freezes WEIGHTS into the compiled policy: this module is part of the kernel cache's digest

WEIGHTS = np.array([
    [  # classic
        1.1872753040977926,  # defence, early: heuristic's card
        -5.1835304546259175,  # defence, early: trump
        2.9341425958459935,  # defence, early: pts
        3.540695407720795,  # defence, early: rank in its suit
        -3.356426630723015,  # defence, early: master
        0.0,  # defence, early: lead
        3.8361292194531584,  # defence, early: lead x trump
        9.354232578058083,  # defence, early: lead x master
        -8.281339141186812,  # defence, early: lead x pts
        6.260067848008954,  # defence, early: wins the trick so far
        11.685597748754057,  # defence, early: wins x last to play
        23.253177050470285,  # defence, early: wins x trick pts
        -6.953585842341095,  # defence, early: partner winning x pts
        -9.0196596741186,  # defence, early: partner winning x trump
        -28.811993437202556,  # defence, early: loses x pts
        -9.019659674118603,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        -0.566509990949675,  # defence, early: unseen trumps x lead x trump
        -2.1202623162539234,  # defence, early: length of its suit
        -0.5973742401398552,  # defence, early: lowest of its suit
        0.937819085356112,  # defence, early: highest of its suit
        -1.2355011643675056,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        -9.690698120473536,  # defence, early: overtrump
        0.6151476563030922,  # defence, late: heuristic's card
        -3.6617563509913893,  # defence, late: trump
        0.9480848760768141,  # defence, late: pts
        0.5429774615224028,  # defence, late: rank in its suit
        -2.2307358869878975,  # defence, late: master
        0.0,  # defence, late: lead
        3.406087071500968,  # defence, late: lead x trump
        5.062280398700246,  # defence, late: lead x master
        -2.2181681747191986,  # defence, late: lead x pts
        9.474370650192599,  # defence, late: wins the trick so far
        1.3805671249398528,  # defence, late: wins x last to play
        9.762155355524902,  # defence, late: wins x trick pts
        -4.683941420842579,  # defence, late: partner winning x pts
        -7.067843422486658,  # defence, late: partner winning x trump
        -9.654043609317295,  # defence, late: loses x pts
        -7.067843422486659,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.8269373111310829,  # defence, late: unseen trumps x lead x trump
        -5.261638060645919,  # defence, late: length of its suit
        -1.066781767528872,  # defence, late: lowest of its suit
        -0.28360712545881206,  # defence, late: highest of its suit
        -0.5324236801274759,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        -8.585755480258014,  # defence, late: overtrump
        0.7886636394645969,  # taker, early: heuristic's card
        -4.952947545980171,  # taker, early: trump
        -7.162756731160274,  # taker, early: pts
        -1.2917137915949293,  # taker, early: rank in its suit
        -4.293769374212696,  # taker, early: master
        0.0,  # taker, early: lead
        0.08643871095728897,  # taker, early: lead x trump
        17.78373764669106,  # taker, early: lead x master
        -2.7412287654683745,  # taker, early: lead x pts
        15.93072072133362,  # taker, early: wins the trick so far
        1.0244453618617204,  # taker, early: wins x last to play
        -29.589197659850267,  # taker, early: wins x trick pts
        -8.471925065135828,  # taker, early: partner winning x pts
        -5.0393862569273935,  # taker, early: partner winning x trump
        -13.645400719706489,  # taker, early: loses x pts
        -5.039386256927392,  # taker, early: ruff
        0.08643871095454007,  # taker, early: taker side x lead x trump
        11.002557675777068,  # taker, early: unseen trumps x lead x trump
        -6.104232607266024,  # taker, early: length of its suit
        -2.0831156160462925,  # taker, early: lowest of its suit
        0.8450882629817406,  # taker, early: highest of its suit
        3.913330854671332,  # taker, early: tricks left x pts
        0.7886636394608182,  # taker, early: taker side x heuristic's card
        -3.0114553531012933,  # taker, early: overtrump
        0.37585066194454037,  # taker, late: heuristic's card
        -3.337132565692649,  # taker, late: trump
        0.7722775734922199,  # taker, late: pts
        -0.019527144841411933,  # taker, late: rank in its suit
        -3.350166421744193,  # taker, late: master
        0.0,  # taker, late: lead
        -1.3106014881707524,  # taker, late: lead x trump
        10.28192212165857,  # taker, late: lead x master
        -2.78456707945543,  # taker, late: lead x pts
        11.31569698732557,  # taker, late: wins the trick so far
        -4.917320934549131,  # taker, late: wins x last to play
        -18.067846207856704,  # taker, late: wins x trick pts
        -0.748612030512021,  # taker, late: partner winning x pts
        -2.0265310775160392,  # taker, late: partner winning x trump
        -10.358345368317728,  # taker, late: loses x pts
        -2.026531077516038,  # taker, late: ruff
        -1.3106014881728736,  # taker, late: taker side x lead x trump
        12.069663211255946,  # taker, late: unseen trumps x lead x trump
        -3.869785484198065,  # taker, late: length of its suit
        -1.4361550733631987,  # taker, late: lowest of its suit
        -0.44012526392087536,  # taker, late: highest of its suit
        -1.7780813554230281,  # taker, late: tricks left x pts
        0.3758506619448741,  # taker, late: taker side x heuristic's card
        -0.9189634511889623,  # taker, late: overtrump
    ],
    [  # piekjas2
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # piekjas3
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # piekjas4
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
    [  # dekjas
        1.0,  # defence, early: heuristic's card
        0.0,  # defence, early: trump
        0.0,  # defence, early: pts
        0.0,  # defence, early: rank in its suit
        0.0,  # defence, early: master
        0.0,  # defence, early: lead
        0.0,  # defence, early: lead x trump
        0.0,  # defence, early: lead x master
        0.0,  # defence, early: lead x pts
        0.0,  # defence, early: wins the trick so far
        0.0,  # defence, early: wins x last to play
        0.0,  # defence, early: wins x trick pts
        0.0,  # defence, early: partner winning x pts
        0.0,  # defence, early: partner winning x trump
        0.0,  # defence, early: loses x pts
        0.0,  # defence, early: ruff
        0.0,  # defence, early: taker side x lead x trump
        0.0,  # defence, early: unseen trumps x lead x trump
        0.0,  # defence, early: length of its suit
        0.0,  # defence, early: lowest of its suit
        0.0,  # defence, early: highest of its suit
        0.0,  # defence, early: tricks left x pts
        0.0,  # defence, early: taker side x heuristic's card
        0.0,  # defence, early: overtrump
        1.0,  # defence, late: heuristic's card
        0.0,  # defence, late: trump
        0.0,  # defence, late: pts
        0.0,  # defence, late: rank in its suit
        0.0,  # defence, late: master
        0.0,  # defence, late: lead
        0.0,  # defence, late: lead x trump
        0.0,  # defence, late: lead x master
        0.0,  # defence, late: lead x pts
        0.0,  # defence, late: wins the trick so far
        0.0,  # defence, late: wins x last to play
        0.0,  # defence, late: wins x trick pts
        0.0,  # defence, late: partner winning x pts
        0.0,  # defence, late: partner winning x trump
        0.0,  # defence, late: loses x pts
        0.0,  # defence, late: ruff
        0.0,  # defence, late: taker side x lead x trump
        0.0,  # defence, late: unseen trumps x lead x trump
        0.0,  # defence, late: length of its suit
        0.0,  # defence, late: lowest of its suit
        0.0,  # defence, late: highest of its suit
        0.0,  # defence, late: tricks left x pts
        0.0,  # defence, late: taker side x heuristic's card
        0.0,  # defence, late: overtrump
        1.0,  # taker, early: heuristic's card
        0.0,  # taker, early: trump
        0.0,  # taker, early: pts
        0.0,  # taker, early: rank in its suit
        0.0,  # taker, early: master
        0.0,  # taker, early: lead
        0.0,  # taker, early: lead x trump
        0.0,  # taker, early: lead x master
        0.0,  # taker, early: lead x pts
        0.0,  # taker, early: wins the trick so far
        0.0,  # taker, early: wins x last to play
        0.0,  # taker, early: wins x trick pts
        0.0,  # taker, early: partner winning x pts
        0.0,  # taker, early: partner winning x trump
        0.0,  # taker, early: loses x pts
        0.0,  # taker, early: ruff
        0.0,  # taker, early: taker side x lead x trump
        0.0,  # taker, early: unseen trumps x lead x trump
        0.0,  # taker, early: length of its suit
        0.0,  # taker, early: lowest of its suit
        0.0,  # taker, early: highest of its suit
        0.0,  # taker, early: tricks left x pts
        0.0,  # taker, early: taker side x heuristic's card
        0.0,  # taker, early: overtrump
        1.0,  # taker, late: heuristic's card
        0.0,  # taker, late: trump
        0.0,  # taker, late: pts
        0.0,  # taker, late: rank in its suit
        0.0,  # taker, late: master
        0.0,  # taker, late: lead
        0.0,  # taker, late: lead x trump
        0.0,  # taker, late: lead x master
        0.0,  # taker, late: lead x pts
        0.0,  # taker, late: wins the trick so far
        0.0,  # taker, late: wins x last to play
        0.0,  # taker, late: wins x trick pts
        0.0,  # taker, late: partner winning x pts
        0.0,  # taker, late: partner winning x trump
        0.0,  # taker, late: loses x pts
        0.0,  # taker, late: ruff
        0.0,  # taker, late: taker side x lead x trump
        0.0,  # taker, late: unseen trumps x lead x trump
        0.0,  # taker, late: length of its suit
        0.0,  # taker, late: lowest of its suit
        0.0,  # taker, late: highest of its suit
        0.0,  # taker, late: tricks left x pts
        0.0,  # taker, late: taker side x heuristic's card
        0.0,  # taker, late: overtrump
    ],
], np.float64)
assert WEIGHTS.shape == (len(ROW_LABELS), N_WEIGHTS)
PROVENANCE = {
    "classic": {
        "commit": "359e3f224beb85c5ae67d4d9c67079ae6240f0b4",
        "held_out": {
            "deals": 1000,
            "decisions": 16439,
            "difference": -0.26029563842082853,
            "difference_ci": [
                -0.4239719112897443,
                -0.09661936555191275
            ],
            "heuristic_best": 0.8095382930835209,
            "heuristic_loss": 3.1110773161384513,
            "net_best": 0.8136747977370886,
            "net_loss": 2.850781677717623
        },
        "ridge": 1.0,
        "seed": 1,
        "test_seed": 2,
        "train_deals": 3000,
        "train_decisions": 48952
    },
    "dekjas": None,
    "piekjas2": None,
    "piekjas3": None,
    "piekjas4": None
}
